/** Blobs (job inputs and assets) as files in one folder, written atomically. */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryFile, writeFileAtomic } from '../../io/atomic-file.ts';
import type { BlobStore } from './types.ts';

const NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,150}$/;

/** A `BlobStore` over the files of `dir`. */
export class FsBlobStore implements BlobStore {
  private constructor(private readonly dir: string) {}

  /** Opens (creating if needed) the folder and removes temporary files left by an interrupted write. */
  static async open(dir: string): Promise<FsBlobStore> {
    await mkdir(dir, { recursive: true });
    for (const name of await readdir(dir)) if (isTemporaryFile(name)) await rm(join(dir, name), { force: true });
    return new FsBlobStore(dir);
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomic(this.path(name), bytes);
  }

  async get(name: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.path(name)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async size(name: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(name))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async stream(name: string): Promise<NodeJS.ReadableStream> {
    return createReadStream(this.path(name));
  }

  async delete(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  private path(name: string): string {
    if (!NAME_PATTERN.test(name)) throw new Error(`blob name "${name}" is not a safe file name`);
    return join(this.dir, name);
  }
}
