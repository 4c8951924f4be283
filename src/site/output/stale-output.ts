/**
 * Rebuilds into an existing `dist/`: the output folder is never emptied (a rebuild would then delete and write every
 * file again), so what the last build wrote and this one did not is removed here at the end.
 */
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The file a build keeps in the output folder from its first write to its last: a folder that holds it is not a whole
 * site. `npm run build` (scripts/build.mjs, which names it too) removes such a folder when the build fails.
 */
export const INCOMPLETE_MARKER = '.build-incomplete';

/** Marks `outDir` as being written. */
export function markOutputIncomplete(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, INCOMPLETE_MARKER), 'a build is writing this folder, or failed while it did; it is not a whole site\n');
}

/** Marks `outDir` as a whole site again. */
export async function markOutputComplete(outDir: string): Promise<void> {
  await rm(join(outDir, INCOMPLETE_MARKER), { force: true });
}

/**
 * Removes every file in `outDir` that is not in `keep` (site paths, `/`-separated, of every file this build owns,
 * written now or left unchanged), then the folders left empty; a top-level `.git` and the build's marker are left
 * alone. Folders in `made` (absolute paths) were made by this build, so they hold only its files and are not looked
 * into: a cold build lists no folder. Returns the number of files removed. Synchronous: it runs when everything else
 * of the build is done, and a promise per entry would cost more than the listing itself.
 */
export function removeStaleOutput(outDir: string, keep: ReadonlySet<string>, made: ReadonlySet<string> = new Set()): number {
  let removed = 0;
  /** Sweeps `dir` (site path `prefix`); says whether anything is left in it. */
  const sweep = (dir: string, prefix: string): boolean => {
    let left = false;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // A deploy checkout in the output folder (GitHub Pages from a worktree, say) is not ours.
      if (prefix === '' && (entry.name === '.git' || entry.name === INCOMPLETE_MARKER)) {
        left = true;
        continue;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (made.has(path) || sweep(path, `${prefix}${entry.name}/`)) left = true;
      } else if (keep.has(`${prefix}${entry.name}`)) left = true;
      else {
        rmSync(path, { force: true });
        removed++;
      }
    }
    if (!left && dir !== outDir) rmdirSync(dir);
    return left;
  };
  sweep(outDir, '');
  return removed;
}
