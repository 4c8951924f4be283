/** Blobs (job inputs and assets) as objects in an S3-compatible store, staged on local disk before they are sent. */
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { isTemporaryFile } from '../../io/atomic-file.ts';
import { sha256File, sriOfBytes } from '../../io/hash-file.ts';
import { S3Objects, type S3Env } from '../../io/s3-objects.ts';
import { checkBlobName } from './fs-blob-store.ts';
import type { BlobStore } from './types.ts';

/** How old a staged upload must be before a store that opens removes it: another process on the same folder may be sending it. */
const STALE_STAGING_MS = 3_600_000;

/** Where the objects are and where uploads wait on local disk. */
export interface S3BlobStoreOptions {
  /** `s3://<bucket>/<prefix>`. */
  url: string;
  /** The AWS variables of the client (endpoint, credentials, region). */
  env: S3Env;
  /** A local folder for uploads on their way to the store. */
  stagingDir: string;
  /** Where the URL came from (`--blob-store`, `ASO_BLOB_STORE`), for the error when it is malformed. */
  source?: string;
}

/** A `BlobStore` over the objects under one `s3://<bucket>/<prefix>`, each blob at `<prefix>/<name>`. */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly objects: S3Objects,
    private readonly stagingDir: string,
  ) {}

  /** Opens the store, removes staged uploads an interrupted process left, and fails naming the URL when the bucket cannot be written. */
  static async open(options: S3BlobStoreOptions): Promise<S3BlobStore> {
    const objects = new S3Objects(options.url, options.env, options.source);
    const store = new S3BlobStore(objects, resolve(options.stagingDir));
    try {
      await mkdir(store.stagingDir, { recursive: true });
      await store.removeStaleStaging();
      await store.check();
    } catch (err) {
      objects.close();
      throw err;
    }
    return store;
  }

  /** `s3://<bucket>/<prefix>`, as messages name the store. */
  get url(): string {
    const { bucket, prefix } = this.objects.location;
    return `s3://${bucket}${prefix ? `/${prefix}` : ''}`;
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.objects.write(checkBlobName(name), bytes, sriOfBytes(bytes).slice('sha256-'.length));
  }

  temporaryPath(): string {
    return join(this.stagingDir, `.upload-${randomBytes(8).toString('hex')}.tmp`);
  }

  async putFile(name: string, path: string): Promise<void> {
    checkBlobName(name);
    if (dirname(resolve(path)) !== this.stagingDir) throw new Error(`blob file ${path} is not a temporary file of the staging folder ${this.stagingDir}`);
    try {
      // The store verifies the bytes it receives against this hash, so a file cut short on the way is refused.
      const digest = await sha256File(path);
      const stream = createReadStream(path);
      try {
        await this.objects.write(name, { stream, length: digest.byteLength }, digest.hash.slice('sha256-'.length));
      } finally {
        stream.destroy();
      }
    } finally {
      await rm(path, { force: true });
    }
  }

  async get(name: string): Promise<Uint8Array | undefined> {
    const body = await this.objects.read(checkBlobName(name));
    return body ? new Uint8Array(await buffer(body)) : undefined;
  }

  async size(name: string): Promise<number | undefined> {
    return this.objects.size(checkBlobName(name));
  }

  async stream(name: string): Promise<NodeJS.ReadableStream> {
    const body = await this.objects.read(checkBlobName(name));
    if (!body) throw new Error(`the blob ${this.objects.url(name)} is missing`);
    return body;
  }

  async delete(name: string): Promise<void> {
    await this.objects.delete(checkBlobName(name));
  }

  /** Writes and deletes a probe object; the error names the store's URL and the store's answer. */
  async check(): Promise<void> {
    const probe = `.probe-${randomBytes(6).toString('hex')}`;
    try {
      await this.objects.write(probe, new Uint8Array(0));
      await this.objects.delete(probe);
    } catch (err) {
      throw new Error(`the blob store ${this.url} cannot be written: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.objects.close();
  }

  private async removeStaleStaging(): Promise<void> {
    const cutoff = Date.now() - STALE_STAGING_MS;
    for (const name of await readdir(this.stagingDir)) {
      if (!isTemporaryFile(name)) continue;
      const path = join(this.stagingDir, name);
      const modified = (await stat(path).catch(() => undefined))?.mtimeMs;
      if (modified !== undefined && modified <= cutoff) await rm(path, { force: true });
    }
  }
}
