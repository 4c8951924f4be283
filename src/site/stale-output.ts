/**
 * Rebuilds into an existing `dist/`: the output folder is never emptied (deleting tens of thousands of files costs a
 * rebuild more than anything else), so what the last build wrote and this one did not is removed here at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The file a build keeps in the output folder from its first write to its last: a folder that holds it is not a whole
 * site. `npm run build` (scripts/build.mjs, which names it too) removes such a folder when the build fails.
 */
export const INCOMPLETE_MARKER = '.build-incomplete';

/** Marks `outDir` as being written (synchronously: a copy thread may start writing right after, see early-copies.ts). */
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
 * into: a cold build lists no folder. Returns the number of files removed.
 */
export async function removeStaleOutput(outDir: string, keep: ReadonlySet<string>, made: ReadonlySet<string> = new Set()): Promise<number> {
  let removed = 0;
  const sweep = async (dir: string, prefix: string): Promise<boolean> => {
    const entries = await readdir(dir, { withFileTypes: true });
    const left = await Promise.all(
      entries.map(async (entry): Promise<boolean> => {
        const path = join(dir, entry.name);
        // A deploy checkout in the output folder (GitHub Pages from a worktree, say) is not ours.
        if (prefix === '' && (entry.name === '.git' || entry.name === INCOMPLETE_MARKER)) return true;
        if (entry.isDirectory()) return made.has(path) || sweep(path, `${prefix}${entry.name}/`);
        if (keep.has(`${prefix}${entry.name}`)) return true;
        await rm(path, { force: true });
        removed++;
        return false;
      }),
    );
    const empty = left.every((kept) => !kept);
    if (empty && dir !== outDir) await rmdir(dir);
    return !empty;
  };
  await sweep(outDir, '');
  return removed;
}
