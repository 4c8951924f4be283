/** How fast this machine's disk creates small files: the floor under any build that writes tens of thousands of them. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the file creation measurement found. */
export interface FileCreationRate {
  files: number;
  ms: number;
  /** Files created per second. */
  perSecond: number;
}

/** Folders the files are spread over, as versions are spread over objects. */
const FOLDERS = 200;
/** About one record page. */
const FILE_BYTES = 14_000;

/**
 * Creates `files` files of 14 KB, each in a folder of its own under one of 200 parents, one at a time (`mkdir -p`,
 * then write), the way a static site generator writes its pages; then removes them.
 */
export async function measureFileCreation(dir: string, files = 3000): Promise<FileCreationRate> {
  const root = join(dir, 'file-creation');
  const body = Buffer.alloc(FILE_BYTES, 0x61);
  try {
    const t = performance.now();
    for (let i = 0; i < files; i++) {
      const folder = join(root, `o${i % FOLDERS}`, `v${i}`);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'index.html'), body);
    }
    const ms = performance.now() - t;
    return { files, ms, perSecond: files / (ms / 1000) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
