import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INCOMPLETE_MARKER, markOutputIncomplete, removeStaleOutput } from '../../../src/site/output/stale-output.ts';

describe('removeStaleOutput', () => {
  let dir: string;
  let out: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-stale-'));
    out = join(dir, 'dist');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Writes `path` under out/ and returns it. */
  async function file(path: string): Promise<string> {
    const full = join(out, path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, path);
    return path;
  }

  it('removes the files this build does not keep, and the folders they leave empty', async () => {
    await file('old/page/index.html');
    await file('old/other.json');
    const keep = new Set([await file('objects/a/versions/1.0.0/aso.object.json'), await file('objects/a/versions/1.0.0/index.html'), await file('index.html')]);
    await file('objects/a/versions/1.0.0/stale.json');

    expect(removeStaleOutput(out, keep)).toBe(3);
    const left = (await readdir(out, { recursive: true })).sort();
    expect(left).toEqual(['index.html', 'objects', 'objects/a', 'objects/a/versions', 'objects/a/versions/1.0.0', 'objects/a/versions/1.0.0/aso.object.json', 'objects/a/versions/1.0.0/index.html']);
  });

  it('does not look into a folder this build made: it holds only this build\'s files', async () => {
    const keep = new Set([await file('objects/new/index.html'), await file('objects/old/index.html')]);
    await file('objects/old/stale.json');
    // Put there behind the build's back: a folder the build made is trusted to hold only what it wrote.
    await file('objects/new/untracked.json');
    expect(removeStaleOutput(out, keep, new Set([join(out, 'objects', 'new')]))).toBe(1);
    expect((await readdir(join(out, 'objects', 'old'))).sort()).toEqual(['index.html']);
    expect((await readdir(join(out, 'objects', 'new'))).sort()).toEqual(['index.html', 'untracked.json']);
  });

  it('leaves the marker of the build in progress alone', async () => {
    markOutputIncomplete(out);
    await file('old.html');
    expect(removeStaleOutput(out, new Set())).toBe(1);
    expect(await readdir(out)).toEqual([INCOMPLETE_MARKER]);
  });

  it('leaves a deploy checkout (.git at the top) alone', async () => {
    await file('.git/HEAD');
    await file('.git/objects/ab/cdef');
    await file('old.html');
    expect(removeStaleOutput(out, new Set())).toBe(1);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(['.git', '.git/HEAD', '.git/objects', '.git/objects/ab', '.git/objects/ab/cdef']);
  });

  it('keeps the output folder itself, even when everything in it was stale', async () => {
    await file('a/b.html');
    expect(removeStaleOutput(out, new Set())).toBe(1);
    expect(await readdir(out)).toEqual([]);
  });
});
