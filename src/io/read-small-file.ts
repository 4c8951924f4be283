/** Reading a file whole when it is small, so that several steps can share one read of it. */
import { open } from 'node:fs/promises';

/**
 * Files up to this size are read whole by `readSmallFile`: the checks after a file's hash (gltf-validator, the image
 * header) and the thumbnail read those bytes instead of the disk again. Larger files stream, never held whole.
 */
export const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/** The bytes of the file at `path` when it holds at most `max` bytes (one open, one stat, one read), else null. */
export async function readSmallFile(path: string, max = WHOLE_FILE_BYTES): Promise<Buffer | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return size > max ? null : await handle.readFile();
  } finally {
    await handle.close();
  }
}
