/** The memory folder of the bench's in-memory build: a new folder on a tmpfs with room, null anywhere else. */
import { readdir, rm, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_MOUNT, memoryFolder } from '../../src/bench/memory-folder.ts';

describe('memoryFolder', () => {
  it('makes a new empty folder under /dev/shm each time it is asked, on Linux', async () => {
    const made = [await memoryFolder(1), await memoryFolder(1)];
    try {
      if (process.platform !== 'linux') {
        expect(made).toEqual([null, null]);
        return;
      }
      const [a, b] = made as [string, string];
      expect(dirname(a)).toBe(MEMORY_MOUNT);
      expect(a).not.toBe(b);
      expect(await readdir(a)).toEqual([]);
    } finally {
      for (const dir of made) if (dir) await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives nothing when the site would not fit in what the mount has free', async () => {
    const free = await statfs(MEMORY_MOUNT).then((s) => s.bavail * s.bsize, () => 0);
    expect(await memoryFolder(free + 1024 ** 3)).toBeNull();
  });

  it('gives nothing for a mount that is not a tmpfs, or none at all', async () => {
    expect(await memoryFolder(1, '/proc')).toBeNull();
    expect(await memoryFolder(1, '/no/such/mount')).toBeNull();
  });
});
