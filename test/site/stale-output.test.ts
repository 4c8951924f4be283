import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markBuildStart, removeStaleOutput } from '../../src/site/stale-output.ts';

describe('removeStaleOutput', () => {
  let dir: string;
  let out: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-stale-'));
    out = join(dir, 'dist');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Writes `path` under out/ with a modification time `ageSeconds` in the past. */
  async function file(path: string, ageSeconds: number): Promise<string> {
    const full = join(out, path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, path);
    const when = new Date(Date.now() - ageSeconds * 1000);
    await utimes(full, when, when);
    return full;
  }

  it('removes the files older than the marker that nobody keeps, and the folders they leave empty', async () => {
    await file('old/page/index.html', 60);
    await file('old/other.json', 60);
    const kept = await file('objects/a/versions/1.0.0/aso.object.json', 60);
    await file('objects/a/versions/1.0.0/stale.json', 60);
    const marker = await markBuildStart(join(dir, 'cache'));
    await file('objects/a/versions/1.0.0/index.html', -1);
    await file('index.html', -1);

    expect(await removeStaleOutput(out, marker, new Set([kept]))).toBe(3);
    const left = (await readdir(out, { recursive: true })).sort();
    expect(left).toEqual(['index.html', 'objects', 'objects/a', 'objects/a/versions', 'objects/a/versions/1.0.0', 'objects/a/versions/1.0.0/aso.object.json', 'objects/a/versions/1.0.0/index.html']);
    // The marker is gone with the build that made it.
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);
  });

  it('leaves a deploy checkout (.git at the top) alone', async () => {
    await file('.git/HEAD', 60);
    await file('.git/objects/ab/cdef', 60);
    await file('old.html', 60);
    const marker = await markBuildStart(join(dir, 'cache'));
    expect(await removeStaleOutput(out, marker, new Set())).toBe(1);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(['.git', '.git/HEAD', '.git/objects', '.git/objects/ab', '.git/objects/ab/cdef']);
  });

  it('keeps the output folder itself, even when everything in it was stale', async () => {
    await file('a/b.html', 60);
    const marker = await markBuildStart(join(dir, 'cache'));
    expect(await removeStaleOutput(out, marker, new Set())).toBe(1);
    expect(await readdir(out)).toEqual([]);
  });
});
