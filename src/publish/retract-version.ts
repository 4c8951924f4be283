/** Appending to `registry/retractions.jsonl` on disk. */
import { join } from 'node:path';
import { appendRetraction, parseRetractions, RETRACTIONS_FILE, type RetractionEntry } from '@aso-registry/core/log/retractions';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { publicationOf } from '../registry/ledger-file.ts';
import { serialized } from './append-ledger.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

/** Absolute path of the retractions file of the registry folder `registryRoot`. */
export function retractionsPath(registryRoot: string): string {
  return join(registryRoot, RETRACTIONS_FILE);
}

/** What a publisher says to retract a version. */
export interface RetractRequest {
  id: string;
  version: string;
  reason: string;
  /** RFC 3339; now when absent. */
  retractedAt?: string;
}

/**
 * Retracts a published version: appends a line bound to its record hash (read from its `publication.json` and
 * checked against its manifest) and returns it. The version's files are not touched.
 */
export function retractVersion(registryRoot: string, request: RetractRequest): Promise<RetractionEntry> {
  const path = retractionsPath(registryRoot);
  return serialized(path, async () => {
    const { recordHash } = await publicationOf(registryRoot, request.id, request.version);
    const entry: RetractionEntry = {
      id: request.id,
      version: request.version,
      recordHash,
      retractedAt: request.retractedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      reason: request.reason.trim(),
    };
    const text = (await readOptionalText(path)) ?? '';
    let next: string;
    try {
      next = appendRetraction(text, entry);
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
    await writeFileAtomic(path, next);
    return parseRetractions(next).entries.at(-1)!;
  });
}
