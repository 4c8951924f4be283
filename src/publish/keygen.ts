/**
 * Making key pairs: the log's (its public key becomes `registry/log.pub`) and a publisher's (appended to
 * `registry/publishers/<name>.pub`, so that keys used before keep verifying, and endorsed by one of them when the file
 * has keys already). The private key is written to a file only its owner can read, outside the registry (by default
 * `.aso-keys/`, which git ignores).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type SignerKey, type VerifierKey } from '@aso-registry/core/log/signed-note';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { endorseKey } from '@aso-registry/core/log/key-endorsement';
import { parsePublisherKeys } from '@aso-registry/core/log/publication-signature';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { publisherKeyPath } from '../registry/registry-keys.ts';
import { PublishError } from './publish-error.ts';
import { LOG_KEY_FILE } from '../registry/registry-files.ts';

/** The folder private keys go to by default, relative to the repository: listed in `.gitignore`. */
export const KEYS_DIR = '.aso-keys';

/** What a key generation wrote. */
export interface GeneratedKey {
  key: SignerKey;
  /** The private key file. */
  privateFile: string;
  /** The public key file in the registry. */
  publicFile: string;
  /** The key that endorsed a publisher's new key, when the file had keys already. */
  endorsedBy?: SignerKey;
}

/** Writes a private key file readable by its owner only; refuses to overwrite one unless `force`. */
async function writePrivateKey(path: string, key: SignerKey, force: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  try {
    await writeFile(path, `${key.signerText}\n`, { mode: 0o600, flag: force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new PublishError(`${path} exists already; a private key is never overwritten (--force replaces it)`);
    throw error;
  }
  await chmod(path, 0o600);
}

/** A new log key: the private key to `out` (default `.aso-keys/log.key` under `cwd`), the public key to `registry/log.pub`. */
export async function generateLogKey(registryRoot: string, name: string, opts: { cwd: string; out?: string; force?: boolean }): Promise<GeneratedKey> {
  const publicFile = join(registryRoot, LOG_KEY_FILE);
  const existing = await readFile(publicFile, 'utf8').catch(() => null);
  if (existing !== null && !opts.force) {
    throw new PublishError(`${publicFile} exists already: a new log key makes every checkpoint signed so far unverifiable with the new one (--force replaces it)`);
  }
  const key = generateKey(name);
  const privateFile = resolve(opts.cwd, opts.out ?? join(KEYS_DIR, 'log.key'));
  await writePrivateKey(privateFile, key, opts.force ?? false);
  await writeFileAtomic(publicFile, `${key.text}\n`);
  return { key, privateFile, publicFile };
}

/** Options of {@link generatePublisherKey}. */
export interface PublisherKeyOptions {
  cwd: string;
  out?: string;
  force?: boolean;
  /** A key the publisher has already, read only when the file holds keys: it endorses the new one. */
  endorser?: () => Promise<SignerKey | null>;
}

/**
 * A new publisher key: the private key to `out` (default `.aso-keys/publisher-<name>.key`), its public key appended
 * to `registry/publishers/<name>.pub`, followed by its endorsement when the file has keys already (`check --base`
 * refuses a new key without one). Throws, before writing anything, when such a file has no endorser among its keys.
 */
export async function generatePublisherKey(registryRoot: string, name: string, opts: PublisherKeyOptions): Promise<GeneratedKey> {
  const publicFile = publisherKeyPath(registryRoot, name);
  const before = await readFile(publicFile, 'utf8').catch(() => '');
  let current: VerifierKey[] = [];
  try {
    if (before.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) current = parsePublisherKeys(before, name);
  } catch (error) {
    throw new PublishError(`${publicFile}: ${(error as Error).message}`);
  }
  let endorser: SignerKey | null = null;
  if (current.length > 0) {
    endorser = (await opts.endorser?.()) ?? null;
    const registered = current.map((k) => `${k.name}+${k.keyId}`).join(', ');
    if (!endorser) {
      throw new PublishError(
        `${publicFile} has keys already (${registered}): a new key must be endorsed by one of them; set ASO_PUBLISHER_KEY_FILE (or ASO_PUBLISHER_KEY) to it and run keygen again`,
      );
    }
    if (!current.some((k) => k.text === endorser!.text)) {
      throw new PublishError(`the endorsing key ${endorser.name}+${endorser.keyId} is not in ${publicFile} (${registered}): endorse with a key "${name}" has already`);
    }
  }
  const key = generateKey(name);
  const privateFile = resolve(opts.cwd, opts.out ?? join(KEYS_DIR, `publisher-${name}.key`));
  await writePrivateKey(privateFile, key, opts.force ?? false);
  await mkdir(dirname(publicFile), { recursive: true });
  const endorsement = endorser ? `${endorseKey(key, endorser)}\n` : '';
  await writeFileAtomic(publicFile, `${before}${before && !before.endsWith('\n') ? '\n' : ''}${key.text}\n${endorsement}`);
  return { key, privateFile, publicFile, ...(endorser ? { endorsedBy: endorser } : {}) };
}
