/** Listing every file of a folder tree. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../src/io/list-files.ts';

describe('listFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-list-files-'));
    await mkdir(join(dir, 'b', 'c'), { recursive: true });
    await mkdir(join(dir, 'empty'));
    for (const f of ['z.txt', 'a.txt', 'b/c/d.json', 'b/e.bin']) await writeFile(join(dir, f), f);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists the files at every depth, relative with /, sorted, without folders', async () => {
    expect(await listFiles(dir)).toEqual(['a.txt', 'b/c/d.json', 'b/e.bin', 'z.txt']);
  });

  it('lists nothing for a folder that does not exist, and fails on a file', async () => {
    expect(await listFiles(join(dir, 'missing'))).toEqual([]);
    await expect(listFiles(join(dir, 'a.txt'))).rejects.toThrow(/ENOTDIR/);
  });
});
