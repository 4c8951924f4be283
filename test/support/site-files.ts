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
 * Expects the sites in `a` and `b` to hold the same files, byte for byte. Pagefind names some index files by a hash
 * that differs from run to run even for the same pages: those are compared by kind and count. Returns `a`'s files.
 */
export async function expectSameSite(a: string, b: string): Promise<string[]> {
  const [files, others] = await Promise.all([listFiles(a), listFiles(b)]);
  const searchFile = (f: string) => f.startsWith('pagefind/') && (/\.pf_\w+$/.test(f) || f.endsWith('pagefind-entry.json'));
  const kind = (f: string) => f.replace(/[0-9a-f]{7,}(?=\.pf_\w+$)/, '#');
  expect(files.filter(searchFile).map(kind)).toEqual(others.filter(searchFile).map(kind));
  expect(files.filter(searchFile).length).toBeGreaterThan(3);
  expect(files.filter((f) => !searchFile(f))).toEqual(others.filter((f) => !searchFile(f)));
  for (const file of files.filter((f) => !searchFile(f))) {
    const [x, y] = await Promise.all([readFile(join(a, file)), readFile(join(b, file))]);
    expect(Buffer.compare(x, y), file).toBe(0);
  }
  return files;
}
