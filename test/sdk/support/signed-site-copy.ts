/** A copy of the built sample site whose checkpoint is signed with a fresh log key named after its origin, for tests that tamper with what a mirror serves. */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointNote, openCheckpoint, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import { type SignerKey } from '@aso-registry/core/log/signed-note';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { siteDir } from '../../support/site.ts';

/** The copy's folder, its log key and checkpoint, and how to read or replace one of its files. */
export interface SignedSiteCopy {
  dir: string;
  key: SignerKey;
  checkpoint: Checkpoint;
  read(path: string): Promise<Buffer>;
  readJson<T>(path: string): Promise<T>;
  write(path: string, bytes: Uint8Array | string): Promise<void>;
  remove(): Promise<void>;
}

/** Copies the sample site into a fresh folder and signs its checkpoint (the sample registry's own key is not in the repository). */
export async function signedSiteCopy(): Promise<SignedSiteCopy> {
  const dir = await mkdtemp(join(tmpdir(), 'aso-signed-copy-'));
  await cp(siteDir(), dir, { recursive: true });
  const file = (path: string): string => join(dir, ...path.split('/').filter(Boolean));
  const { checkpoint } = await openCheckpoint(await readFile(file('checkpoint'), 'utf8'), []);
  const key = generateKey(checkpoint.origin);
  await writeFile(file('checkpoint'), checkpointNote(checkpoint, key));
  return {
    dir,
    key,
    checkpoint,
    read: (path) => readFile(file(path)),
    readJson: async <T>(path: string) => JSON.parse(await readFile(file(path), 'utf8')) as T,
    write: (path, bytes) => writeFile(file(path), bytes),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
