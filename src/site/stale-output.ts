/**
 * Rebuilds into an existing `dist/`: Astro is told not to empty it (deleting tens of thousands of files costs a rebuild
 * more than anything else), so what the last build wrote and this one did not is removed here at the end.
 */
import { lstat, mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const MARKER = 'build-started';

/**
 * The file a build keeps in the output folder from its first write to its last: a folder that holds it is not a whole
 * site. `npm run build` (scripts/build.mjs, which names it too) removes such a folder when the build fails.
 */
export const INCOMPLETE_MARKER = '.build-incomplete';

/** Marks `outDir` as being written. */
export async function markOutputIncomplete(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, INCOMPLETE_MARKER), 'a build is writing this folder, or failed while it did; it is not a whole site\n');
}

/** Marks `outDir` as a whole site again. */
export async function markOutputComplete(outDir: string): Promise<void> {
  await rm(join(outDir, INCOMPLETE_MARKER), { force: true });
}

/**
 * Marks the start of a build with a file in `cacheDir`: files written from now on have a modification time at or
 * after the marker's, taken from the same clock (the kernel's), so no clock of this process is compared with it.
 */
export async function markBuildStart(cacheDir: string): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const marker = join(cacheDir, MARKER);
  await writeFile(marker, `${new Date().toISOString()}\n`);
  return marker;
}

/**
 * Removes every file in `outDir` older than the marker that is not in `keep` (absolute paths of files an earlier build
 * wrote and this one still owns), then the folders left empty; a top-level `.git` is left alone. Returns the number of
 * files removed.
 */
export async function removeStaleOutput(outDir: string, marker: string, keep: ReadonlySet<string>): Promise<number> {
  const since = (await stat(marker)).mtimeMs;
  let removed = 0;
  const sweep = async (dir: string): Promise<boolean> => {
    const entries = await readdir(dir, { withFileTypes: true });
    const left = await Promise.all(
      entries.map(async (entry): Promise<boolean> => {
        const path = join(dir, entry.name);
        // A deploy checkout in the output folder (GitHub Pages from a worktree, say) is not ours: Astro spares it too.
        if (dir === outDir && entry.name === '.git') return true;
        if (entry.isDirectory()) return sweep(path);
        if (keep.has(path)) return true;
        if ((await lstat(path)).mtimeMs >= since) return true;
        await rm(path, { force: true });
        removed++;
        return false;
      }),
    );
    const empty = left.every((kept) => !kept);
    if (empty && dir !== outDir) await rmdir(dir);
    return !empty;
  };
  await sweep(outDir);
  await rm(marker, { force: true });
  return removed;
}
