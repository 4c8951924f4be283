/** Reading `registry/ledger.jsonl` and the publication records it lists, on disk: what check, the build and publishers use. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEDGER_FILE, signedFields, verifyLedger, type LedgerCheckpoint, type LedgerPublication } from '@aso-registry/core/log/ledger';
import { versionDir } from '@aso-registry/core/format/paths';
import { sriOf } from '@aso-registry/core/format/sri';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { MANIFEST_FILE, PUBLICATION_FILE } from './registry-files.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

/** Absolute path of the ledger of the registry folder `registryRoot`. */
export function ledgerPath(registryRoot: string): string {
  return join(registryRoot, LEDGER_FILE);
}

/** The publication of every version folder of the registry, oldest first (ties by `<id>@<version>`). */
export async function allPublications(registryRoot: string): Promise<LedgerPublication[]> {
  const out: LedgerPublication[] = [];
  const objects = join(registryRoot, 'objects');
  for (const id of (await readdir(objects).catch(() => [])).sort()) {
    for (const version of (await readdir(join(objects, id, 'versions')).catch(() => [])).sort()) {
      out.push(await publicationOf(registryRoot, id, version));
    }
  }
  const key = (p: LedgerPublication): string => `${p.id}@${p.version}`;
  return out.sort((a, b) => Date.parse(a.publishedAt) - Date.parse(b.publishedAt) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * The ledger publication of a version folder, read from its `publication.json`, after checking that the record
 * hash is the hash of the exact bytes of its `aso.object.json`.
 */
export async function publicationOf(registryRoot: string, id: string, version: string): Promise<LedgerPublication> {
  const dir = join(registryRoot, ...versionDir(id, version).split('/'));
  const pubFile = join(dir, PUBLICATION_FILE);
  const manifestFile = join(dir, MANIFEST_FILE);
  // Read one after the other, so that when both are missing the message is always about the publication record.
  const pubText = await readFile(pubFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new Error(e.code === 'ENOENT' ? `${pubFile}: is missing; ${id}@${version} is not a published version` : `${pubFile}: ${e.message}`);
  });
  const manifestBytes = await readFile(manifestFile).catch((e: NodeJS.ErrnoException) => {
    throw new Error(e.code === 'ENOENT' ? `${manifestFile}: is missing` : `${manifestFile}: ${e.message}`);
  });
  let pub: Partial<PublicationRecord>;
  try {
    pub = JSON.parse(pubText) as Partial<PublicationRecord>;
  } catch (error) {
    throw new Error(`${pubFile}: is not valid JSON: ${(error as Error).message}`);
  }
  for (const key of ['publicationId', 'publishedAt', 'recordHash'] as const) {
    if (typeof pub[key] !== 'string') throw new Error(`${pubFile}: ${key} must be a string`);
  }
  const actual = await sriOf(new Uint8Array(manifestBytes));
  if (actual !== pub.recordHash) {
    throw new Error(`${pubFile}: recordHash ${pub.recordHash} is not the hash of ${MANIFEST_FILE} (${actual})`);
  }
  const signed = typeof pub.signature === 'string' && typeof pub.keyId === 'string' && typeof pub.publisher === 'string';
  return {
    publicationId: pub.publicationId!,
    id,
    version,
    recordHash: pub.recordHash!,
    publishedAt: pub.publishedAt!,
    ...(signed ? signedFields({ publisher: pub.publisher, keyId: pub.keyId, signature: pub.signature }) : {}),
  };
}

/** The checkpoint of the registry's ledger (size 0, head null when there is none); throws when the ledger is broken. */
export async function readLedgerCheckpoint(registryRoot: string): Promise<LedgerCheckpoint> {
  const path = ledgerPath(registryRoot);
  const text = await readOptionalText(path);
  if (text === null) return { size: 0, head: null };
  const { entries, problems, head } = await verifyLedger(text);
  if (problems.length) throw new Error(`${path}: line ${problems[0]!.line}: ${problems[0]!.message}`);
  return { size: entries.length, head };
}
