/** Directory listing that never follows a symbolic link: the registry holds only plain files and folders. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of a folder, by what it is (from lstat, not from where a link points). */
export interface DirEntry {
  name: string;
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
}

/** The entries of a folder sorted by name, or null when the folder does not exist (read synchronously, see read-small-file.ts). */
export async function listDir(dir: string): Promise<DirEntry[] | null> {
  let dirents;
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return dirents
    .map((d): DirEntry => ({
      name: d.name,
      path: join(dir, d.name),
      kind: d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other',
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Why an entry that is not a plain file or folder is refused, or null when it is one. */
export function entryKindProblem(entry: DirEntry): string | null {
  if (entry.kind === 'symlink') return 'is a symbolic link; the registry holds only plain files and folders';
  if (entry.kind === 'other') return 'is not a plain file or folder';
  return null;
}
