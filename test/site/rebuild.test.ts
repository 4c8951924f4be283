/**
 * A rebuild writes into the existing dist/ (Astro does not empty it) and keeps unchanged published files; the result
 * must still be exactly the site a build into an empty folder makes: nothing of the last build left behind.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

/** Every file under `dir`, relative, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const picture = (bytes: Uint8Array) => [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes }];

describe('a rebuild into the last build’s dist/', () => {
  let parent: string;
  let rebuilt: string;
  let fresh: string;
  let firstListing: string[];
  let keptMtime: number;

  beforeAll(async () => {
    const reg = await tempRegistry('aso-rebuild-');
    parent = reg.parent;
    const red = await pngBytes(16, 12, { r: 200, g: 30, b: 30 });
    const blue = await pngBytes(20, 10, { r: 30, g: 30, b: 200 });
    await writeVersion(reg.root, { id: 'kept-object', version: '1.0.0', tags: ['kept'], files: picture(red) });
    await writeVersion(reg.root, { id: 'gone-object', version: '1.0.0', tags: ['gone-tag'], files: picture(blue) });
    rebuilt = join(parent, 'dist');
    const one = await buildSite({ outDir: rebuilt, registryDir: reg.root, cacheDir: join(parent, 'cache') });
    expect(one.code, one.stdout + one.stderr).toBe(0);
    firstListing = await listFiles(rebuilt);
    keptMtime = (await stat(join(rebuilt, 'objects/kept-object/versions/1.0.0/representations/picture.png'))).mtimeMs;

    // The registry changes: an object and its tag go (a fork that drops them, say), a version with a new tag comes.
    await rm(join(reg.root, 'objects', 'gone-object'), { recursive: true });
    await writeVersion(reg.root, { id: 'kept-object', version: '1.1.0', tags: ['kept', 'new-tag'], files: picture(blue) });
    const two = await buildSite({ outDir: rebuilt, registryDir: reg.root, cacheDir: join(parent, 'cache') });
    expect(two.code, two.stdout + two.stderr).toBe(0);
    expect(two.stdout).toMatch(/published files and thumbnails \(\d+ copied, the rest unchanged\)/);
    expect(two.stdout).toMatch(/[1-9]\d* stale files of the last build removed/);

    fresh = join(parent, 'fresh', 'dist');
    await mkdir(dirname(fresh), { recursive: true });
    const three = await buildSite({ outDir: fresh, registryDir: reg.root, cacheDir: join(parent, 'fresh', 'cache') });
    expect(three.code, three.stdout + three.stderr).toBe(0);
  });

  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('holds exactly the files of a build into an empty folder, byte for byte (the search index: the same files by kind)', async () => {
    const files = await listFiles(rebuilt);
    const freshFiles = await listFiles(fresh);
    // Pagefind names some index files by a hash that differs from run to run even for the same pages: compare those
    // by kind and count, and everything else byte for byte.
    const searchFile = (f: string) => f.startsWith('pagefind/') && (/\.pf_\w+$/.test(f) || f.endsWith('pagefind-entry.json'));
    const kind = (f: string) => f.replace(/[0-9a-f]{7,}(?=\.pf_\w+$)/, '#');
    expect(files.filter(searchFile).map(kind)).toEqual(freshFiles.filter(searchFile).map(kind));
    expect(files.filter(searchFile).length).toBeGreaterThan(3);
    expect(files.filter((f) => !searchFile(f))).toEqual(freshFiles.filter((f) => !searchFile(f)));
    for (const file of files.filter((f) => !searchFile(f))) {
      const [a, b] = await Promise.all([readFile(join(rebuilt, file)), readFile(join(fresh, file))]);
      expect(Buffer.compare(a, b), file).toBe(0);
    }
    // The rebuilt index names the pages of this build only.
    const entry = JSON.parse(await readFile(join(rebuilt, 'pagefind', 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    expect(Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0)).toBe(files.filter((f) => /^objects\/[^/]+\/versions\/[^/]+\/index\.html$/.test(f)).length);
  });

  it('removed the pages, bytes and folders of what the registry no longer has', async () => {
    expect(firstListing).toContain('objects/gone-object/versions/1.0.0/index.html');
    expect(firstListing.some((f) => f.startsWith('tags/gone-tag'))).toBe(true);
    const files = await listFiles(rebuilt);
    expect(files.filter((f) => f.includes('gone'))).toEqual([]);
    await expect(stat(join(rebuilt, 'objects/gone-object'))).rejects.toThrow(/ENOENT/);
    expect(files).toContain('objects/kept-object/versions/1.1.0/index.html');
  });

  it('left an unchanged published file in place instead of copying it again', async () => {
    const now = (await stat(join(rebuilt, 'objects/kept-object/versions/1.0.0/representations/picture.png'))).mtimeMs;
    expect(now).toBe(keptMtime);
  });
});
