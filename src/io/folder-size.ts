/** The size of a folder tree on disk. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Total size in bytes and the number of files of a folder tree. */
export async function folderSize(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}
