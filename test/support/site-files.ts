/** The files of a built site, and the comparison of two sites that the build should make alike. */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * Expects the sites in `a` and `b` to hold the same files, byte for byte, the search index included (Pagefind is
 * handed each shard's pages in one order, so the same pages make the same index files). Returns `a`'s files.
 */
export async function expectSameSite(a: string, b: string): Promise<string[]> {
  const [files, others] = await Promise.all([listFiles(a), listFiles(b)]);
  expect(files.filter((f) => /^pagefind\/(shard-\d+\/)?fragment\/.+\.pf_fragment$/.test(f)).length).toBeGreaterThan(1);
  expect(files).toEqual(others);
  for (const file of files) {
    const [x, y] = await Promise.all([readFile(join(a, file)), readFile(join(b, file))]);
    expect(Buffer.compare(x, y), file).toBe(0);
  }
  return files;
}
