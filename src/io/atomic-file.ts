/** Crash-safe file writes: write a temporary file beside the target, flush it, rename it over the target. */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Replaces `path` with `bytes` so that a reader sees the old or the new content, never a part. */
export async function writeFileAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** True for the temporary files `writeFileAtomic` leaves behind when the process dies mid-write. */
export function isTemporaryFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
