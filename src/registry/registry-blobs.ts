/**
 * Representation bytes kept outside git, in an S3-compatible store named by `ASO_BLOB_STORE=s3://<bucket>/<prefix>`,
 * each under `<prefix>/sha256/<hex>` of its content. The manifest's hash and byte length are the pointer: a blob is
 * downloaded into a content-keyed cache folder, hashed as it is written, and kept only when both match.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { sriToHex } from '@aso-registry/core/format/sri';
import { S3Objects, type S3Env } from '../io/s3-objects.ts';

/** The variable that names the store. */
export const BLOB_STORE_VARIABLE = 'ASO_BLOB_STORE';

/** A blob as the manifest describes it: its `sha256-<base64>` hash and byte length. */
export interface BlobRef {
  hash: string;
  byteLength: number;
}

/** The store's content-addressed blobs, and the local folder that keeps the verified copies. */
export class RegistryBlobs {
  private readonly objects: S3Objects;
  private readonly cache: string;
  private readonly fetching = new Map<string, Promise<string>>();

  /** `cacheDir` is the registry's cache folder (registry-dir.ts); the verified copies go in its `blobs/sha256/`. */
  constructor(store: string, env: S3Env, cacheDir: string) {
    this.objects = new S3Objects(store, env, BLOB_STORE_VARIABLE);
    this.cache = join(cacheDir, 'blobs', 'sha256');
  }

  /** The key's name under the store's prefix, `sha256/<hex>`. */
  private static nameOf(ref: BlobRef): string {
    return `sha256/${sriToHex(ref.hash)}`;
  }

  /** `s3://<bucket>/<prefix>/sha256/<hex>`, as messages name a blob. */
  url(ref: BlobRef): string {
    return this.objects.url(RegistryBlobs.nameOf(ref));
  }

  /** The store's URL, `s3://<bucket>/<prefix>`. */
  get label(): string {
    const { bucket, prefix } = this.objects.location;
    return `s3://${bucket}${prefix ? `/${prefix}` : ''}`;
  }

  /** The blob's size in the store (a HEAD request), or undefined when it is not there. */
  size(ref: BlobRef): Promise<number | undefined> {
    return this.objects.size(RegistryBlobs.nameOf(ref));
  }

  /**
   * The path of a local copy of the blob whose length and SHA-256 match `ref`: from the cache when an earlier run
   * verified it, else downloaded, hashed as it is written and moved into the cache only when it matches. Throws an
   * error naming the key when the blob is missing or its bytes differ.
   */
  local(ref: BlobRef): Promise<string> {
    const name = RegistryBlobs.nameOf(ref);
    let pending = this.fetching.get(name);
    if (!pending) {
      pending = this.download(ref, name);
      this.fetching.set(name, pending);
      void pending.catch(() => this.fetching.delete(name));
    }
    return pending;
  }

  private async download(ref: BlobRef, name: string): Promise<string> {
    const hex = name.slice('sha256/'.length);
    const path = join(this.cache, hex);
    const cached = await lstat(path).catch(() => null);
    if (cached?.isFile() && cached.size === ref.byteLength) return path;
    const body = await this.objects.read(name);
    if (!body) throw new Error(`${this.url(ref)} is missing from the blob store`);
    await mkdir(this.cache, { recursive: true });
    const temp = join(this.cache, `.${hex}.${randomBytes(6).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    let length = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        length += chunk.length;
        // Stop at once when the store sends more than the manifest says: a wrong blob is never read whole.
        if (length > ref.byteLength) done(new Error(`more than the manifest's ${ref.byteLength} bytes`));
        else {
          hash.update(chunk);
          done(null, chunk);
        }
      },
    });
    try {
      await pipeline(body, count, createWriteStream(temp));
      const hex2 = hash.digest('hex');
      if (length !== ref.byteLength) throw new Error(`${length} bytes, the manifest says ${ref.byteLength}`);
      if (hex2 !== hex) throw new Error(`its SHA-256 is ${hex2}, not the manifest's ${hex}`);
      await rename(temp, path);
      return path;
    } catch (error) {
      await rm(temp, { force: true });
      throw new Error(`${this.url(ref)} does not match its manifest: ${(error as Error).message}`);
    }
  }

  /**
   * Uploads the file at `path`, whose length and hash are `ref`'s, unless the store holds a blob of that length under
   * its key already; the store checks the SHA-256 it is sent. Returns whether it uploaded.
   */
  async upload(path: string, ref: BlobRef): Promise<boolean> {
    const name = RegistryBlobs.nameOf(ref);
    if ((await this.objects.size(name)) === ref.byteLength) return false;
    await this.objects.write(name, { stream: createReadStream(path), length: ref.byteLength }, ref.hash.slice('sha256-'.length));
    return true;
  }

  close(): void {
    this.objects.close();
  }
}

/** The store `ASO_BLOB_STORE` names, or undefined when it is not set. */
export function openRegistryBlobs(env: Record<string, string | undefined>, cacheDir: string): RegistryBlobs | undefined {
  const store = env[BLOB_STORE_VARIABLE]?.trim();
  return store ? new RegistryBlobs(store, env, cacheDir) : undefined;
}
