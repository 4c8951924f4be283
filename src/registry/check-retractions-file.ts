/** The rules of `registry/retractions.jsonl`: well-formed lines, each bound to an existing version by its record hash. */
import { join } from 'node:path';
import { parseRetractions, RETRACTIONS_FILE, type Retracted } from '@aso-registry/core/log/retractions';
import { versionDir } from '@aso-registry/core/format/paths';
import type { KnownVersion } from './check-ledger-file.ts';
import { readLineFile } from './line-file.ts';
import type { Problem } from './registry-model.ts';

/** Problems of the retractions file, and the retracted versions by `<id>@<version>` (empty when there is no file). */
export async function checkRetractionsFile(
  registryRoot: string,
  known: readonly KnownVersion[],
  rel: (path: string) => string,
): Promise<{ problems: Problem[]; retracted: Map<string, Retracted> }> {
  const retracted = new Map<string, Retracted>();
  const { text, problems, at } = await readLineFile(registryRoot, RETRACTIONS_FILE, rel);
  if (text === null) return { problems, retracted };

  const { entries, lineOf, problems: found } = parseRetractions(text);
  for (const p of found) at(p.line, p.message);
  const byKey = new Map(known.map((v) => [`${v.id}@${v.version}`, v]));
  entries.forEach((e, i) => {
    const key = `${e.id}@${e.version}`;
    const line = lineOf[i]!;
    const v = byKey.get(key);
    if (!v) {
      at(line, `(${key}) names a version that is not in the registry (${rel(join(registryRoot, ...versionDir(e.id, e.version).split('/')))} is missing)`);
      return;
    }
    if (v.publication && e.recordHash !== v.publication.recordHash) {
      at(line, `(${key}) recordHash ${e.recordHash} is not the record hash of ${key} (${v.publication.recordHash})`);
      return;
    }
    if (v.publication && Date.parse(e.retractedAt) < Date.parse(v.publication.publishedAt)) {
      at(line, `(${key}) retractedAt ${e.retractedAt} is before the version was published (${v.publication.publishedAt})`);
      return;
    }
    if (!retracted.has(key)) retracted.set(key, { reason: e.reason, retractedAt: e.retractedAt });
  });
  return { problems, retracted };
}
