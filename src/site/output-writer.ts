/**
 * Writes the files of a build into the output folder, many at a time, and only where the bytes differ: a file that
 * already holds exactly what this build would write is left alone (its modification time too), so a rebuild writes
 * what changed and nothing else. Each folder is made once. Every path handed to it is recorded, so that what the last
 * build left and this one did not is known at the end (see stale-output.ts).
 */
import { constants, readFileSync, statSync, type Stats } from 'node:fs';
import { copyFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';

/**
 * What is at `path`, or null when nothing is. Synchronous, like every look at a file already there: a rebuild looks at
 * every file of the site, whose metadata is in memory, where a system call costs microseconds and a trip through
 * libuv's thread pool several times that. Writing and copying stay asynchronous, many at a time.
 */
function statOrNull(path: string): Stats | null {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}

/** Writes in flight at once: small writes wait on the disk, not on the CPU, so many overlap. */
export const WRITES_IN_FLIGHT = 64;

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
  private readonly folders = new Map<string, Promise<boolean>>();
  /** The folders this build made (absolute paths): they hold nothing but this build's files. */
  readonly madeFolders = new Set<string>();
  private readonly limit = pLimit(WRITES_IN_FLIGHT);

  constructor(readonly outDir: string) {}

  /** The absolute path of a site path. */
  file(path: string): string {
    return join(this.outDir, ...path.split('/'));
  }

  /** Writes `path` unless it already holds exactly `data`; resolves to whether it wrote. */
  write(path: string, data: string | Uint8Array): Promise<boolean> {
    this.claim(path);
    return this.limit(async () => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const to = this.file(path);
      // In a folder this build made there is nothing to compare with (a cold build looks at no file before writing).
      if (!(await this.folder(dirname(to)))) {
        const old = statOrNull(to);
        if (old?.isFile() && old.size === bytes.length && readFileSync(to).equals(bytes)) return false;
      }
      await writeFile(to, bytes);
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
    return this.limit(async () => {
      const to = this.file(path);
      const fresh = await this.folder(dirname(to));
      const source = statSync(from);
      const target = fresh ? null : statOrNull(to);
      if (target?.isFile() && target.size === source.size && Math.abs(target.mtimeMs - source.mtimeMs) < 1) return false;
      await copyFile(from, to, constants.COPYFILE_FICLONE);
      // Times travel to the kernel as seconds in a float, which keeps about a microsecond: compared to within 1 ms above.
      await utimes(to, source.atimeMs / 1000, source.mtimeMs / 1000);
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

  /** Makes a folder once, however many files go into it; resolves to true when this build made it (so it held nothing). */
  private folder(dir: string): Promise<boolean> {
    let made = this.folders.get(dir);
    if (!made) {
      // A folder that was not there when first asked for holds no file of an earlier build.
      made = statOrNull(dir)?.isDirectory()
        ? Promise.resolve(false)
        : mkdir(dir, { recursive: true }).then(() => {
            this.madeFolders.add(dir);
            return true;
          });
      this.folders.set(dir, made);
    }
    return made;
  }
}
