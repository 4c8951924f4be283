/** Reading a text file that may not be there, refusing a link or anything but a plain file. */
import { lstat, readFile } from 'node:fs/promises';

/** The text of a file, or null when it does not exist; throws when it is a link or not a plain file. */
export async function readOptionalText(path: string): Promise<string | null> {
  const kind = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!kind) return null;
  if (kind.isSymbolicLink()) throw new Error(`${path} is a symbolic link; the registry holds only plain files and folders`);
  if (!kind.isFile()) throw new Error(`${path} is not a plain file`);
  return readFile(path, 'utf8');
}
