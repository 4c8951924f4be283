/** Checks a version against the registry's published ledger: the chain, the checkpoint, and one line with its record hash. */
import type { ApiLedgerCheckpoint, ApiVersion } from '@aso-registry/core/documents/api-types';
import { ledgerRecordProblems } from '@aso-registry/core/log/ledger';
import { InvalidResponseError, LedgerError, NetworkError, NotFoundError } from './errors.ts';
import { get, getJson, type FetchLike } from './request.ts';

/** `auto` (the default) checks when the registry publishes a ledger; `require` fails when it does not; `skip` does not check. */
export type LedgerMode = 'auto' | 'require' | 'skip';

/** Where to read and how to resolve URLs on the registry's canonical origin. */
export interface LedgerContext {
  fetch: FetchLike;
  checkpointUrl: string;
  resolveUrl(url: string): Promise<string>;
  signal?: AbortSignal | undefined;
}

function readCheckpoint(value: unknown, url: string): ApiLedgerCheckpoint {
  const doc = value as Partial<ApiLedgerCheckpoint> | null;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new InvalidResponseError(url, '', 'must be a JSON object');
  if (doc.schema !== 'aso/api/v1/ledger') throw new InvalidResponseError(url, '/schema', 'must be "aso/api/v1/ledger"');
  if (!Number.isInteger(doc.size) || (doc.size as number) < 0) throw new InvalidResponseError(url, '/size', 'must be an integer >= 0');
  if (doc.head !== null && typeof doc.head !== 'string') throw new InvalidResponseError(url, '/head', 'must be a string or null');
  if (doc.url !== null && typeof doc.url !== 'string') throw new InvalidResponseError(url, '/url', 'must be a string or null');
  return doc as ApiLedgerCheckpoint;
}

/**
 * Verifies that `doc` is vouched for by the ledger. Returns false when there is no ledger to check
 * (and `mode` allows that), true when the check passed; throws {@link LedgerError} otherwise.
 */
export async function verifyLedgerEntry(doc: ApiVersion, mode: LedgerMode, ctx: LedgerContext): Promise<boolean> {
  if (mode === 'skip') return false;
  let checkpoint: ApiLedgerCheckpoint;
  try {
    checkpoint = readCheckpoint(await getJson(ctx.fetch, ctx.checkpointUrl, ctx.signal), ctx.checkpointUrl);
  } catch (error) {
    if (error instanceof NotFoundError && mode === 'auto') return false;
    if (error instanceof NotFoundError) throw new LedgerError(ctx.checkpointUrl, 'the registry publishes no ledger checkpoint');
    throw error;
  }
  if (checkpoint.url === null) {
    if (mode === 'auto') return false;
    throw new LedgerError(ctx.checkpointUrl, 'the registry publishes no ledger');
  }
  const url = await ctx.resolveUrl(checkpoint.url);
  const response = await get(ctx.fetch, url, ctx.signal);
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new NetworkError(url, response.status, `reading ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  const problems = await ledgerRecordProblems(text, checkpoint, {
    id: doc.id,
    version: doc.version,
    recordHash: doc.publication.recordHash,
    publicationId: doc.publication.publicationId,
  });
  if (problems.length) throw new LedgerError(url, problems.join('; '));
  return true;
}
