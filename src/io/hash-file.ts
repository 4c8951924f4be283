/** Streaming SHA-256 of files on disk, the one place the registry reads bytes to hash them. */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { hexToSri } from '@aso-registry/core/format/sri';
import { readSmallFile } from './read-small-file.ts';

/** The byte length and `sha256-<base64>` hash of a file. */
export interface FileDigest {
  byteLength: number;
  hash: string;
  /** The bytes that were hashed, when the file was small enough to be read whole (see `hashSmallFileWhole`). */
  bytes?: Uint8Array;
}

/** The `sha256-<base64>` hash of bytes in memory, synchronously (WebCrypto's digest is a promise and a thread hop each). */
export function sriOfBytes(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

/** Something that hashes a file; a content-keyed cache can wrap `sha256File` with this shape. */
export type FileHasher = (path: string) => Promise<FileDigest>;

const MIN_CHUNK = 16 * 1024;
const MAX_CHUNK = 2 * 1024 * 1024;

/**
 * Hashes a file in chunks of up to 2 MiB, never holding it whole in memory. Two buffers take turns: the next chunk
 * is read (in libuv's thread pool) while the current one is hashed, so reading and hashing overlap.
 */
export async function sha256File(path: string): Promise<FileDigest> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    // Small files get a small buffer: thousands of large buffers for tiny files only feed the garbage collector.
    const chunk = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, size));
    const buffers = [Buffer.allocUnsafe(chunk), Buffer.allocUnsafe(chunk)] as const;
    const hash = createHash('sha256');
    let byteLength = 0;
    let turn = 0;
    let reading = handle.read(buffers[0], 0, chunk, null);
    for (;;) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      const current = buffers[turn]!;
      turn ^= 1;
      // The other buffer was hashed in the previous round, so it is free to be filled now.
      reading = handle.read(buffers[turn]!, 0, chunk, null);
      byteLength += bytesRead;
      hash.update(current.subarray(0, bytesRead));
    }
    return { byteLength, hash: hexToSri(hash.digest('hex')) };
  } finally {
    await handle.close();
  }
}

/**
 * Hashes a file and, when it is small (`readSmallFile`), returns its bytes with the digest: one open and one read for
 * the small files that make up most registries. A larger file is hashed by `sha256File`, never held whole.
 */
export async function hashSmallFileWhole(path: string): Promise<FileDigest> {
  const bytes = await readSmallFile(path);
  if (!bytes) return sha256File(path);
  return { byteLength: bytes.length, hash: hexToSri(createHash('sha256').update(bytes).digest('hex')), bytes };
}
