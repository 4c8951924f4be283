/** Reading a file whole when it is small, so that several steps can share one read of it. */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

/**
 * Files up to this size are read whole by `readSmallFile`: the checks after a file's hash (gltf-validator, the image
 * header) and the thumbnail read those bytes instead of the disk again. Larger files stream, never held whole.
 */
export const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of the file at `path` when it holds at most `max` bytes (one open, one stat, one read), else null.
 *
 * Synchronous on purpose, like the registry's other small reads (read-registry-json.ts, list-dir.ts): a registry's
 * files are small and, after a checkout, in the page cache, where a system call is cheap and a trip through libuv's
 * thread pool costs more than the read itself.
 */
export async function readSmallFile(path: string, max = WHOLE_FILE_BYTES): Promise<Buffer | null> {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size > max ? null : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
