/**
 * Copying a file synchronously with its times. A small file is copied by reading it and writing its bytes, not by the
 * kernel's copy: `copyFileSync` tries a clone, then copies through the kernel with several calls more per file, and on
 * a 2-core ext4 machine it cost 130-190 us of CPU for a file of 1-20 KB against 50-105 us read and written (4,000 of
 * the bench's published files, and 1,500 files of 20 KB). From about 100 KB on the two cost the same, and above that
 * the kernel's copy (a clone on a file system that can) is kept.
 */
import { closeSync, constants, copyFileSync, futimesSync, openSync, readFileSync, utimesSync, writeFileSync, type Stats } from 'node:fs';

/** Files smaller than this are copied by reading and writing their bytes (see above). */
export const SMALL_COPY_BYTES = 64 * 1024;

/**
 * Copies `from`, whose stats are `source`, to `to`, and gives the copy the source's access and modification times (a
 * later build recognises the copy by its size and modification time). Times travel to the kernel as seconds in a
 * float, which keeps about a microsecond: compare them to within a millisecond.
 */
export function copyWithTimes(from: string, to: string, source: Stats): void {
  if (source.size >= SMALL_COPY_BYTES) {
    copyFileSync(from, to, constants.COPYFILE_FICLONE);
    utimesSync(to, source.atimeMs / 1000, source.mtimeMs / 1000);
    return;
  }
  const bytes = readFileSync(from);
  const fd = openSync(to, 'w');
  try {
    writeFileSync(fd, bytes);
    futimesSync(fd, source.atimeMs / 1000, source.mtimeMs / 1000);
  } finally {
    closeSync(fd);
  }
}
