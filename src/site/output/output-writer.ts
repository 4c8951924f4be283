/**
 * Writes the files of a build into the output folder, only where the bytes differ: a file that already holds exactly
 * what this build would write is left alone (its modification time too), so a rebuild writes what changed and nothing
 * else. Each folder is made once. Every path handed to it is recorded, so that what the last build left and this one
 * did not is known at the end (see stale-output.ts).
 *
 * Writes and small copies are synchronous, one after another on the build's thread. A write lands in the page cache:
 * it waits on no disk, and its cost is the kernel's CPU. Many writes in flight on libuv's threads cost more of it, not
 * less: threads creating files in the same folders wait on each other's locks. Copies of large files (published
 * meshes, point clouds) stay asynchronous, a few at a time, so that one of them does not hold the build's thread (see
 * docs/decisions/0010-write-only-changed-output-and-sweep.md).
 *
 * Small files are copied by reading and writing their bytes (see io/copy-file-sync.ts).
 *
 * The synchronous writes run from a queue in slices of a few milliseconds, with a turn of the event loop between
 * slices, so that the render threads get their next pages and Pagefind its input while many files are written, instead
 * of waiting for a long loop of writes to end.
 */
import { constants, mkdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { copyFile, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';
import { copyWithTimes } from '../../io/copy-file-sync.ts';
import { SlicedQueue } from '../../io/time-slices.ts';

/** What is at `path`, or null when nothing is. */
function statOrNull(path: string): Stats | null {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}

/** Files at least this large are copied off the build's thread. */
export const LARGE_COPY_BYTES = 4 * 1024 * 1024;

/** Copies of large files in flight at once. */
const LARGE_COPIES_IN_FLIGHT = 4;

/** What a writer did. */
export interface WriteCounts {
  /** Files of the site handed to the writer. */
  files: number;
  /** Files written or copied because their bytes were new. */
  written: number;
}

/** The output folder of one build. */
export class OutputWriter {
  /** Every file of the site, relative to the output folder, `/`-separated. */
  readonly paths = new Set<string>();
  /** The files this build wrote (relative), in the order they were written. */
  readonly written: string[] = [];
  /** Each folder of the site and whether this build made it (true) or found it (false). */
  private readonly folders = new Map<string, boolean>();
  /** The folders this build made (absolute paths): they hold nothing but this build's files. */
  readonly madeFolders = new Set<string>();
  private readonly largeCopies = pLimit(LARGE_COPIES_IN_FLIGHT);
  /** The synchronous writes, run in slices so that the event loop turns between them (see io/time-slices.ts). */
  private readonly queue = new SlicedQueue();

  /** The output folder as the paths of its files name it (`file` joins, which normalises). */
  private readonly root: string;

  constructor(readonly outDir: string) {
    this.root = dirname(this.file('_'));
  }

  /** The absolute path of a site path. */
  file(path: string): string {
    return join(this.outDir, ...path.split('/'));
  }

  /** Writes `path` unless it already holds exactly `data`; resolves to whether it wrote. */
  write(path: string, data: string | Uint8Array): Promise<boolean> {
    this.claim(path);
    return this.queue.run(() => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const to = this.file(path);
      // In a folder this build made there is nothing to compare with (a cold build looks at no file before writing).
      if (!this.folder(dirname(to))) {
        const old = statOrNull(to);
        if (old?.isFile() && old.size === bytes.length && readFileSync(to).equals(bytes)) return false;
      }
      writeFileSync(to, bytes);
      this.written.push(path);
      return true;
    });
  }

  /**
   * Copies the file `from` to `path` unless `path` is already a copy of it: the same size and the modification time a
   * copy made here is given (the source's). The kernel copies, or clones where the file system can (copy-on-write).
   */
  copy(from: string, path: string): Promise<boolean> {
    this.claim(path);
    return this.queue.run(() => {
      const to = this.file(path);
      const fresh = this.folder(dirname(to));
      const source = statSync(from);
      const target = fresh ? null : statOrNull(to);
      if (target?.isFile() && target.size === source.size && Math.abs(target.mtimeMs - source.mtimeMs) < 1) return false;
      if (source.size >= LARGE_COPY_BYTES) {
        return this.largeCopies(async () => {
          await copyFile(from, to, constants.COPYFILE_FICLONE);
          await utimes(to, source.atimeMs / 1000, source.mtimeMs / 1000);
          this.written.push(path);
          return true;
        });
      }
      copyWithTimes(from, to, source);
      this.written.push(path);
      return true;
    });
  }

  /** Whether the site already holds a file at `path` (from the last build). */
  async has(path: string): Promise<boolean> {
    return statOrNull(this.file(path))?.isFile() ?? false;
  }

  /** Keeps a file another tool wrote (or that this build keeps unchanged) as part of the site. */
  keep(path: string): void {
    this.paths.add(path);
  }

  /** What was written so far. */
  counts(): WriteCounts {
    return { files: this.paths.size, written: this.written.length };
  }

  private claim(path: string): void {
    if (this.paths.has(path)) throw new Error(`the build wrote ${path} twice; each file of the site has one source`);
    this.paths.add(path);
  }

  /**
   * Makes a folder once, however many files go into it; true when this build made it (so it held nothing). A folder
   * inside one this build made is new, and is made without looking: a cold build looks at no folder but the output
   * folder itself.
   */
  private folder(dir: string): boolean {
    const known = this.folders.get(dir);
    if (known !== undefined) return known;
    const parent = dirname(dir);
    const made = dir !== this.root && parent !== dir && this.folder(parent) ? true : !statOrNull(dir)?.isDirectory();
    if (made) {
      mkdirSync(dir, { recursive: true });
      this.madeFolders.add(dir);
    }
    this.folders.set(dir, made);
    return made;
  }
}
