/** Streaming SHA-256 of files on disk, the one place the registry reads bytes to hash them. */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { hexToSri } from '../core/sri.ts';

/** The byte length and `sha256-<base64>` hash of a file. */
export interface FileDigest {
  byteLength: number;
  hash: string;
}

/** Something that hashes a file; a content-keyed cache can wrap `sha256File` with this shape. */
export type FileHasher = (path: string) => Promise<FileDigest>;

const MIN_CHUNK = 16 * 1024;
const MAX_CHUNK = 1024 * 1024;

/** Hashes a file by streaming it in chunks of up to 1 MiB, never holding it whole in memory. */
export async function sha256File(path: string): Promise<FileDigest> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const hash = createHash('sha256');
    let byteLength = 0;
    // Small files get a small buffer: thousands of 1 MiB buffers for tiny files only feed the garbage collector.
    const highWaterMark = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, size));
    for await (const chunk of handle.createReadStream({ highWaterMark, autoClose: false })) {
      const bytes = chunk as Buffer;
      byteLength += bytes.length;
      hash.update(bytes);
    }
    return { byteLength, hash: hexToSri(hash.digest('hex')) };
  } finally {
    await handle.close();
  }
}
