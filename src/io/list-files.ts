/** Every file of a folder tree, as paths relative to it. */
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** The files under `dir` (at any depth), relative to it with `/`, sorted; none when `dir` does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}
