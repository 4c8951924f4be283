/**
 * Signing a version added by hand: its publisher's key signs the record hash, and `publication.json` gains the key ID
 * and the signature. Only before the version's ledger line is appended: a published version never changes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEDGER_FILE, verifyLedger } from '@aso-registry/core/log/ledger';
import { signPublication } from '@aso-registry/core/log/publication-signature';
import type { SignerKey } from '@aso-registry/core/log/signed-note';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { signatureProblems } from '../registry/check-signature.ts';
import { publicationOf } from '../registry/ledger-file.ts';
import { loadRegistryKeys } from '../registry/registry-keys.ts';
import { PublishError } from './publish-error.ts';
import { targetDir } from './write-version.ts';
import { PUBLICATION_FILE } from '../registry/registry-files.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

/** What signing did. */
export interface SignedVersionResult {
  /** The publication record file. */
  file: string;
  /** False when the record already carried this key's signature. */
  changed: boolean;
  keyId: string;
}

/**
 * Signs `id@version` with `signer`: its `publication.json` must name the key's owner as publisher, its record hash must
 * match the manifest, the version must not be in the ledger yet, and the key must be registered in
 * `registry/publishers/<name>.pub`.
 */
export async function signVersion(registryRoot: string, id: string, version: string, signer: SignerKey): Promise<SignedVersionResult> {
  const key = `${id}@${version}`;
  const file = join(targetDir(registryRoot, id, version), PUBLICATION_FILE);
  const checked = await publicationOf(registryRoot, id, version).catch((error: Error) => Promise.reject(new PublishError(error.message)));
  const ledger = await readOptionalText(join(registryRoot, LEDGER_FILE));
  if (ledger !== null && (await verifyLedger(ledger)).entries.some((e) => e.id === id && e.version === version)) {
    throw new PublishError(`${key} is in the ledger already: it is published and its publication record never changes`);
  }
  const record = JSON.parse(await readFile(file, 'utf8')) as PublicationRecord;
  if (record.publisher !== signer.name) {
    throw new PublishError(`${file}: the publisher is "${record.publisher}", but the key is ${signer.name}'s (${signer.name}+${signer.keyId}); set "publisher" to "${signer.name}" or sign with ${record.publisher}'s key`);
  }
  const { keyId, signature } = signPublication({ id, version, recordHash: checked.recordHash }, signer);
  const { publishers } = await loadRegistryKeys(registryRoot);
  const problems = await signatureProblems({ ...record, keyId, signature }, id, version, { publishers });
  if (problems.length) throw new PublishError(`${key}: ${problems[0]!.message}`);
  if (record.keyId === keyId && record.signature === signature) return { file, changed: false, keyId };
  const { publicationId, publishedAt, publisher, recordHash } = record;
  await writeFileAtomic(file, `${JSON.stringify({ publicationId, publishedAt, publisher, recordHash, keyId, signature }, null, 2)}\n`);
  return { file, changed: true, keyId };
}
