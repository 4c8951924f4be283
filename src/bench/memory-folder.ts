/**
 * A folder in memory (a tmpfs, `/dev/shm` on Linux) for a build whose output no disk holds: the same cold build there
 * takes what the build's CPU takes, whatever state the disk is in. Beside `cp -a` of the site on the disk, it tells a
 * build slowed by its disk from one held up by its own work.
 */
import { mkdtemp, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** `statfs`'s type of a tmpfs (Linux's TMPFS_MAGIC). */
const TMPFS = 0x01021994;

/** Where a memory file system is usually mounted. */
export const MEMORY_MOUNT = '/dev/shm';

/**
 * A new folder under `mount` when it is a tmpfs with at least `bytes` free, else null (not Linux, no such mount, or
 * too little room: the site would not fit, or would take memory the build needs).
 */
export async function memoryFolder(bytes: number, mount = MEMORY_MOUNT): Promise<string | null> {
  let fs: { type: number; bavail: number; bsize: number };
  try {
    fs = await statfs(mount);
  } catch {
    return null;
  }
  if (fs.type !== TMPFS || fs.bavail * fs.bsize < bytes) return null;
  return mkdtemp(join(mount, 'aso-bench-'));
}
