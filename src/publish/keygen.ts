/**
 * Making key pairs: the log's (its public key becomes `registry/log.pub`) and a publisher's (appended to
 * `registry/publishers/<name>.pub`, so that keys used before keep verifying). The private key is written to a file
 * only its owner can read, outside the registry (by default `.aso-keys/`, which git ignores).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { generateKey, type SignerKey } from '../core/log/signed-note.ts';
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

/**
 * A new publisher key: the private key to `out` (default `.aso-keys/publisher-<name>.key`), its public key appended
 * to `registry/publishers/<name>.pub`.
 */
export async function generatePublisherKey(registryRoot: string, name: string, opts: { cwd: string; out?: string; force?: boolean }): Promise<GeneratedKey> {
  const key = generateKey(name);
  const privateFile = resolve(opts.cwd, opts.out ?? join(KEYS_DIR, `publisher-${name}.key`));
  await writePrivateKey(privateFile, key, opts.force ?? false);
  const publicFile = publisherKeyPath(registryRoot, name);
  const before = await readFile(publicFile, 'utf8').catch(() => '');
  await mkdir(dirname(publicFile), { recursive: true });
  await writeFileAtomic(publicFile, `${before}${before && !before.endsWith('\n') ? '\n' : ''}${key.text}\n`);
  return { key, privateFile, publicFile };
}
