/** Blobs (job inputs and assets) as files in one folder, written atomically. */
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isTemporaryFile, writeFileAtomic } from '../../io/atomic-file.ts';
import type { BlobStore } from './types.ts';

const NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,150}$/;

/** Returns `name` when it is a safe blob name (one plain file name, not hidden), else throws; every blob store keeps to it. */
export function checkBlobName(name: string): string {
  if (!NAME_PATTERN.test(name)) throw new Error(`blob name "${name}" is not a safe file name`);
  return name;
}

/** A `BlobStore` over the files of `dir`. */
export class FsBlobStore implements BlobStore {
  private constructor(private readonly dir: string) {}

  /**
   * Opens (creating if needed) the folder and removes temporary files left by an interrupted write. With `shared`
   * (several processes write the folder) only temporary files older than an hour go, since others may be writing.
   */
  static async open(dir: string, options: { shared?: boolean } = {}): Promise<FsBlobStore> {
    await mkdir(dir, { recursive: true });
    const cutoff = Date.now() - (options.shared ? 3_600_000 : 0);
    for (const name of await readdir(dir)) {
      if (!isTemporaryFile(name)) continue;
      const path = join(dir, name);
      const modified = options.shared ? (await stat(path).catch(() => undefined))?.mtimeMs : 0;
      if (modified !== undefined && modified <= cutoff) await rm(path, { force: true });
    }
    return new FsBlobStore(dir);
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomic(this.path(name), bytes);
  }

  temporaryPath(): string {
    return join(this.dir, `.upload-${randomBytes(8).toString('hex')}.tmp`);
  }

  async putFile(name: string, path: string): Promise<void> {
    const target = this.path(name);
    if (dirname(resolve(path)) !== resolve(this.dir)) throw new Error(`blob file ${path} is not a temporary file of the blob folder ${this.dir}`);
    await rename(path, target);
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

  async check(): Promise<void> {
    const probe = join(this.dir, `.probe-${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  }

  private path(name: string): string {
    return join(this.dir, checkBlobName(name));
  }
}
