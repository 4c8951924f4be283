/**
 * A rebuild writes into the existing dist/ and writes only the files whose bytes change; the result must still be
 * exactly the site a build into an empty folder makes: nothing of the last build left behind. A rebuild with nothing
 * changed writes no file at all; one after a new version writes that version's files and the indexes, no other's.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { ledgerFrom } from '@aso-registry/core/log/ledger';
import { allPublications } from '../../src/registry/ledger-file.ts';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../support/build-site.ts';
import { expectSameSite, listFiles } from '../support/site-files.ts';
import { thumbnailKey } from '../../src/site/data/thumbnails.ts';
import { pngBytes, sri, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

const picture = (bytes: Uint8Array) => [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes }];

describe('a rebuild into the last build’s dist/', () => {
  let parent: string;
  let rebuilt: string;
  let fresh: string;
  let firstListing: string[];
  let keptMtime: number;
  let oldThumbnails: string[];
  let smallKey: string;

  beforeAll(async () => {
    const reg = await tempRegistry('aso-rebuild-');
    parent = reg.parent;
    // Wider than a thumbnail, so that each gets a WebP; the small one is its own thumbnail (thumbnail-as-is.ts).
    const red = await pngBytes(400, 300, { r: 200, g: 30, b: 30 });
    const blue = await pngBytes(500, 250, { r: 30, g: 30, b: 200 });
    const small = await pngBytes(16, 12, { r: 30, g: 200, b: 30 });
    await writeVersion(reg.root, { id: 'kept-object', version: '1.0.0', tags: ['kept'], files: picture(red) });
    await writeVersion(reg.root, { id: 'gone-object', version: '1.0.0', tags: ['gone-tag'], files: picture(blue) });
    await writeVersion(reg.root, { id: 'small-object', version: '1.0.0', tags: ['small'], files: picture(small) });
    rebuilt = join(parent, 'dist');
    const one = await buildSite({ outDir: rebuilt, registryDir: reg.root, cacheDir: join(parent, 'cache') });
    expect(one.code, one.stdout + one.stderr).toBe(0);
    firstListing = await listFiles(rebuilt);
    keptMtime = (await stat(join(rebuilt, 'objects/kept-object/versions/1.0.0/representations/picture.png'))).mtimeMs;

    // What a build from before thumbnails were WebP only left behind: in the cache, a record holding the size alone with
    // a JPEG beside the WebP, and the JPEG in dist/ too. Here the records give a wrong size and the "WebP" files are
    // PNGs, so a rebuild that read them as its own would differ from a build into an empty folder.
    const thumbs = join(parent, 'cache', 'thumbnails');
    const jpeg = await sharp(await pngBytes(3, 2)).jpeg().toBuffer();
    // An older build kept no index of its records (thumbnails.ts, INDEX_FILE) either.
    await rm(join(thumbs, 'index.json'));
    oldThumbnails = (await readdir(thumbs)).filter((f) => f.endsWith('.webp')).map((f) => f.slice(0, -'.webp'.length));
    // A build from before small images were their own thumbnails made a WebP of the small one too.
    smallKey = thumbnailKey(sri(small));
    await writeFile(join(thumbs, `${smallKey}.webp`), await sharp(small).webp().toBuffer());
    for (const key of oldThumbnails) {
      await writeFile(join(thumbs, `${key}.json`), JSON.stringify({ width: 3, height: 2 }));
      await writeFile(join(thumbs, `${key}.webp`), await pngBytes(3, 2));
      await writeFile(join(thumbs, `${key}.jpg`), jpeg);
      await writeFile(join(rebuilt, 'thumbnails', `${key}.jpg`), jpeg);
    }

    // The registry changes: an object and its tag go (a fork that drops them, say), a version with a new tag comes.
    await rm(join(reg.root, 'objects', 'gone-object'), { recursive: true });
    await writeVersion(reg.root, { id: 'kept-object', version: '1.1.0', tags: ['kept', 'new-tag'], files: picture(blue) });
    const two = await buildSite({ outDir: rebuilt, registryDir: reg.root, cacheDir: join(parent, 'cache') });
    expect(two.code, two.stdout + two.stderr).toBe(0);
    expect(two.stdout).toMatch(/\d+ files in the site, [1-9]\d* written \(the rest were unchanged\)/);
    expect(two.stdout).toMatch(/[1-9]\d* stale files of the last build removed/);

    fresh = join(parent, 'fresh', 'dist');
    await mkdir(dirname(fresh), { recursive: true });
    const three = await buildSite({ outDir: fresh, registryDir: reg.root, cacheDir: join(parent, 'fresh', 'cache') });
    expect(three.code, three.stdout + three.stderr).toBe(0);
  });

  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('holds exactly the files of a build into an empty folder, byte for byte, the search index included', async () => {
    const files = await expectSameSite(rebuilt, fresh);
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

  it('made again the thumbnails an older build left (a record each, a JPEG beside), and removed those from the cache and dist/', async () => {
    // The red image (400 x 300) lives on in kept-object 1.0.0, the blue one (500 x 250) in 1.1.0: each is one WebP, and the
    // blue one, over 1.5 times a thumbnail's width, has its twin for dense screens too; all made again.
    expect(oldThumbnails).toHaveLength(3);
    const files = await listFiles(rebuilt);
    expect(files.filter((f) => f.startsWith('thumbnails/'))).toEqual(oldThumbnails.map((key) => `thumbnails/${key}.webp`).sort());
    for (const key of oldThumbnails) {
      expect((await sharp(join(rebuilt, 'thumbnails', `${key}.webp`)).metadata()), key).toMatchObject({ format: 'webp' });
      expect((await sharp(join(rebuilt, 'thumbnails', `${key}.webp`)).metadata()).width, key).toBeGreaterThan(3);
    }
    const cached = await readdir(join(parent, 'cache', 'thumbnails'));
    expect(cached.filter((f) => !f.endsWith('.webp')).sort()).toEqual(['index.json']);
  });

  it('shows the small image as it is, as a build into an empty folder does, although the cache held a WebP of it', async () => {
    const page = await readFile(join(rebuilt, 'objects', 'small-object', 'index.html'), 'utf8');
    expect(page).toContain('<img class="thumbnail" src="/objects/small-object/versions/1.0.0/representations/picture.png" width="16" height="12"');
    expect(await listFiles(rebuilt)).not.toContain(`thumbnails/${smallKey}.webp`);
  });

  it('left an unchanged published file in place instead of copying it again', async () => {
    const now = (await stat(join(rebuilt, 'objects/kept-object/versions/1.0.0/representations/picture.png'))).mtimeMs;
    expect(now).toBe(keptMtime);
  });
});

/** Every file under `dir` with its modification and change times. */
async function times(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(dir)) {
    const st = await stat(join(dir, f));
    out.set(f, `${st.mtimeMs} ${st.ctimeMs}`);
  }
  return out;
}

describe('the files a rebuild writes', () => {
  let parent: string;
  let root: string;
  let out: string;
  const build = async (): Promise<string> => {
    // Shards of the search index of one record page, about: these objects make two, delta-object alone in shard 0.
    const run = await buildSite({ outDir: out, registryDir: root, cacheDir: join(parent, 'cache'), env: { ASO_SEARCH_SHARD_PAGES: '1' } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    return run.stdout;
  };

  beforeAll(async () => {
    const reg = await tempRegistry('aso-rebuild-writes-');
    parent = reg.parent;
    root = reg.root;
    out = join(parent, 'dist');
    for (const [i, id] of ['alpha-object', 'beta-object', 'gamma-object', 'delta-object'].entries()) {
      await writeVersion(root, { id, version: '1.0.0', tags: ['shared', id], publishedAt: `2026-01-0${i + 1}T00:00:00Z`, files: picture(await pngBytes(8 + i, 8, { r: 40 * i, g: 90, b: 20 })) });
    }
    await writeLedger();
    await build();
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  /** The registry's ledger: one line per publication, so that the site has a log. */
  async function writeLedger(): Promise<void> {
    await writeFile(join(root, 'ledger.jsonl'), await ledgerFrom(await allPublications(root)));
  }

  it('writes no file when nothing changed: every modification and change time stays', async () => {
    const before = await times(out);
    const stdout = await build();
    expect(stdout).toMatch(/ 0 written \(the rest were unchanged\), 0 stale files/);
    // Not even the listing pages are rendered again: they share a digest of the whole site.
    expect(stdout).toMatch(/; 0 pages rendered, [1-9]\d* unchanged;/);
    expect(await times(out)).toEqual(before);
  });

  it('after a new version, writes its files and the indexes, and leaves every other object alone', async () => {
    const before = await times(out);
    await writeVersion(root, { id: 'beta-object', version: '1.1.0', tags: ['shared', 'beta-object'], publishedAt: '2026-02-01T00:00:00Z', files: picture(await pngBytes(12, 9, { r: 1, g: 2, b: 3 })) });
    const ledger = await readFile(join(root, 'ledger.jsonl'), 'utf8');
    await writeLedger();
    expect((await readFile(join(root, 'ledger.jsonl'), 'utf8')).startsWith(ledger)).toBe(true);
    await build();
    const after = await times(out);
    const changed = [...after].filter(([f, t]) => before.get(f) !== t).map(([f]) => f);
    // The new version's own files.
    for (const f of ['index.html', 'agent.json', 'aso.object.json', 'representations/picture.png']) expect(changed).toContain(`objects/beta-object/versions/1.1.0/${f}`);
    // Other objects: not one file written.
    expect(changed.filter((f) => /alpha-object|gamma-object|delta-object/.test(f))).toEqual([]);
    // The search index: the shard of beta-object is made again, the other one (with Pagefind's scripts) is left alone.
    expect(changed.filter((f) => f.startsWith('pagefind/shard-1/'))).toEqual(expect.arrayContaining([expect.stringMatching(/^pagefind\/shard-1\/pagefind\.en_\w+\.pf_meta$/)]));
    expect(changed.filter((f) => f.startsWith('pagefind/') && !f.startsWith('pagefind/shard-'))).toEqual([]);
    // The published bytes of the object's earlier version stay as they were.
    expect(changed.filter((f) => f.startsWith('objects/beta-object/versions/1.0.0/representations/') || f === 'objects/beta-object/versions/1.0.0/aso.object.json')).toEqual([]);
    // What did change is the version, its object's pages and documents, and the site's indexes.
    const allowed = [
      /^objects\/beta-object\//,
      /^api\/v1\/objects\/beta-object(\.json|\/)/,
      /^(index\.html|page\/|tags\/|404\.html)/,
      /^api\/v1\/(index|objects|ledger|worlds)\.json$/,
      /^(feed\.(xml|json)|llms\.txt|sitemap-\S+\.xml|ledger\.jsonl|checkpoint)$/,
      /^tile\//,
      /^thumbnails\//,
      /^pagefind\//,
    ];
    expect(changed.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
  });
});
