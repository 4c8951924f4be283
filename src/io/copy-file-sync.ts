/**
 * Copying a file synchronously with its times. A small file is copied by reading it and writing its bytes, not by the
 * kernel's copy: `copyFileSync` tries a clone, then copies through the kernel with several more system calls per file,
 * which for a small file cost more CPU than the bytes themselves. A larger file keeps the kernel's copy (a clone on a
 * file system that can; see docs/decisions/0010-write-only-changed-output-and-sweep.md).
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
