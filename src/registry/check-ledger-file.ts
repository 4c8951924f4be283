/** The ledger rules of `npm run check` and the build: a valid chain, exactly one matching line per version, no line without a version. */
import { join } from 'node:path';
import { LEDGER_FILE, verifyLedger, type LedgerEntry } from '@aso-registry/core/log/ledger';
import { versionDir } from '@aso-registry/core/format/paths';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { readLineFile } from './line-file.ts';
import type { Problem } from './registry-model.ts';
import { PUBLICATION_FILE } from './registry-files.ts';

/** A version folder found in the tree, with its publication record when that was well-formed. */
export interface KnownVersion {
  id: string;
  version: string;
  publication?: PublicationRecord;
}

/** The checked ledger: its entries, size and head. */
export interface LedgerState {
  entries: LedgerEntry[];
  size: number;
  head: string | null;
}

/** Problems of `registry/ledger.jsonl` against the versions of the tree; `ledger` is null when there is no ledger file. */
export async function checkLedgerFile(
  registryRoot: string,
  known: readonly KnownVersion[],
  rel: (path: string) => string,
): Promise<{ problems: Problem[]; ledger: LedgerState | null }> {
  const { text, problems, at } = await readLineFile(registryRoot, LEDGER_FILE, rel);
  if (text === null) return { problems, ledger: null };

  const verified = await verifyLedger(text);
  for (const p of verified.problems) at(p.line, p.message);
  const byKey = new Map<string, LedgerEntry[]>();
  for (const e of verified.entries) {
    const key = `${e.id}@${e.version}`;
    byKey.set(key, [...(byKey.get(key) ?? []), e]);
  }
  const folders = new Set(known.map((v) => `${v.id}@${v.version}`));

  for (const v of known) {
    const key = `${v.id}@${v.version}`;
    const lines = byKey.get(key) ?? [];
    const pubFile = rel(join(registryRoot, ...versionDir(v.id, v.version).split('/'), PUBLICATION_FILE));
    if (lines.length === 0) {
      at(null, `${key} has no line, but ${pubFile} says it is published; append one with: npx tsx scripts/ledger.ts append ${key}`);
      continue;
    }
    const pub = v.publication;
    if (!pub) continue;
    for (const e of lines) {
      if (e.recordHash !== pub.recordHash) {
        at(e.seq, `(${key}) recordHash ${e.recordHash} is not the record hash in ${pubFile} (${pub.recordHash}): the published manifest was changed`);
      }
      if (e.publicationId !== pub.publicationId) at(e.seq, `(${key}) publicationId ${e.publicationId} is not the one in ${pubFile} (${pub.publicationId})`);
      if (e.publishedAt !== pub.publishedAt) at(e.seq, `(${key}) publishedAt ${e.publishedAt} is not the one in ${pubFile} (${pub.publishedAt})`);
      if (e.signature !== pub.signature || e.keyId !== pub.keyId) {
        const what = (s?: string, k?: string): string => (s === undefined ? 'no signature' : `the signature of key ${k}`);
        at(e.seq, `(${key}) has ${what(e.signature, e.keyId)}, but ${pubFile} has ${what(pub.signature, pub.keyId)}: the line and the record must carry the same signature`);
      } else if (e.signature !== undefined && e.publisher !== pub.publisher) {
        at(e.seq, `(${key}) names publisher ${e.publisher}, but ${pubFile} says ${pub.publisher}`);
      }
    }
  }
  for (const e of verified.entries) {
    const key = `${e.id}@${e.version}`;
    if (!folders.has(key)) {
      const dir = rel(join(registryRoot, ...versionDir(e.id, e.version).split('/')));
      at(e.seq, `(${key}) has no version folder (${dir} is missing): a published version is never removed; retract it in retractions.jsonl instead`);
    }
  }
  return { problems, ledger: { entries: verified.entries, size: verified.entries.length, head: verified.head } };
}
