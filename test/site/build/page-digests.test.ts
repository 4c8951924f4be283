/** Which pages a build renders again: the digests of their inputs, from a real registry loaded as the build loads it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentDigests, documentsKey, pageDigests } from '../../../src/site/build/page-digests.ts';
import { inSitemap, NOT_FOUND_PAGE, pageFile, pagePaths } from '../../../src/site/data/page-paths.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { writeVersion, writeWorld } from '../../support/fixture-registry.ts';
import { picture, twoObjects, type TwoObjects } from './two-objects.ts';

let fx: TwoObjects;
let root: string;
const load = () => fx.load();

beforeAll(async () => {
  fx = await twoObjects('aso-page-digests-');
  ({ root } = fx);
});
afterAll(() => fx.remove());

describe('pageDigests', () => {
  it('gives every page a digest that a rebuild of the same registry repeats, one shared by the listing pages', async () => {
    const data = await load();
    const a = pageDigests(data, 'code-1');
    const own = [
      'objects/alpha-object/',
      'objects/alpha-object/versions/1.0.0/',
      'objects/alpha-object/versions/1.0.0/embed/',
      'objects/beta-object/',
      'objects/beta-object/versions/1.0.0/',
      'objects/beta-object/versions/1.0.0/embed/',
    ];
    const listings = ['', 'tags/', 'tags/stone/', 'tags/wood/', NOT_FOUND_PAGE];
    expect(pagePaths(data).sort()).toEqual([...own, ...listings].sort());
    expect([...a.keys()].sort()).toEqual([documentsKey('alpha-object', '1.0.0'), documentsKey('beta-object', '1.0.0'), ...own, ...listings].sort());
    expect(new Set(listings.map((p) => a.get(p))).size).toBe(1);
    expect(new Set([...own, ...listings.slice(0, 1)].map((p) => a.get(p))).size).toBe(own.length + 1);
    expect(pageDigests(await load(), 'code-1')).toEqual(a);
  });

  it('changes the listing pages with anything of the site they may show: a version, a world, a thumbnail, the order, the tags, the shards', async () => {
    const data = await load();
    const before = pageDigests(data, 'code-1').get('')!;
    expect(pageDigests(data, 'code-2').get('')).not.toBe(before);
    // A thumbnail (the catalog shows them).
    const entry = data.objects[0]!.versions[0]!;
    const thumbnail = entry.thumbnail;
    entry.thumbnail = { ...thumbnail!, width: thumbnail!.width + 1 };
    expect(pageDigests(data, 'code-1').get('')).not.toBe(before);
    entry.thumbnail = thumbnail;
    expect(pageDigests(data, 'code-1').get('')).toBe(before);
    // The catalog order, the tags, the worlds, the number of search shards.
    expect(pageDigests({ ...data, catalog: [...data.catalog].reverse() }, 'code-1').get('')).not.toBe(before);
    expect(pageDigests({ ...data, tags: data.tags.map((t) => ({ ...t, slug: `${t.slug}-2` })) }, 'code-1').get(NOT_FOUND_PAGE)).not.toBe(before);
    expect(pageDigests({ ...data, searchShards: data.searchShards + 1 }, 'code-1').get('')).not.toBe(before);
    expect(pageDigests({ ...data, worlds: [{ id: 'w', name: 'W', objects: [] } as never] }, 'code-1').get('')).not.toBe(before);
  });

  it('changes every page with the code, and only the pages of an object that gets a version', async () => {
    const before = pageDigests(await load(), 'code-1');
    const otherCode = pageDigests(await load(), 'code-2');
    for (const [path, digest] of before) expect(otherCode.get(path), path).not.toBe(digest);
    await writeVersion(root, { id: 'alpha-object', version: '1.1.0', tags: ['wood'], files: await picture(3) });
    const after = pageDigests(await load(), 'code-1');
    expect(after.get('objects/beta-object/')).toBe(before.get('objects/beta-object/'));
    expect(after.get('objects/beta-object/versions/1.0.0/')).toBe(before.get('objects/beta-object/versions/1.0.0/'));
    // The earlier version's page lists the new one in its history.
    expect(after.get('objects/alpha-object/versions/1.0.0/')).not.toBe(before.get('objects/alpha-object/versions/1.0.0/'));
    expect(after.get('objects/alpha-object/versions/1.1.0/')).toBeDefined();
  });

  it('changes the pages of the object a new world references (a record page lists its worlds), and no other', async () => {
    const before = pageDigests(await load(), 'code-1');
    await writeWorld(root, { id: 'garden', name: 'Garden', objects: [{ id: 'beta-object', version: '1.0.0' }] });
    const after = pageDigests(await load(), 'code-1');
    expect(after.get('objects/beta-object/versions/1.0.0/')).not.toBe(before.get('objects/beta-object/versions/1.0.0/'));
    expect(after.get('objects/alpha-object/versions/1.0.0/')).toBe(before.get('objects/alpha-object/versions/1.0.0/'));
  });

  it('changes the pages of an object whose tag gets another page slug, and not those of other objects', async () => {
    const before = pageDigests(await load(), 'code-1');
    // A tag whose slug collides with "stone" takes "stone-2": "stone" is its own slug and keeps it.
    await writeVersion(root, { id: 'gamma-object', version: '1.0.0', tags: ['Stone'], publishedAt: '2020-01-01T00:00:00Z', files: await picture(4) });
    const data = await load();
    const after = pageDigests(data, 'code-1');
    expect(data.tags.filter((t) => t.slug.startsWith('stone')).map((t) => t.slug).sort()).toEqual(['stone', 'stone-2']);
    expect(after.get('objects/alpha-object/versions/1.0.0/')).toBe(before.get('objects/alpha-object/versions/1.0.0/'));
  });

  it('changes no page of another object when a version brings a tag that no latest version carried', async () => {
    // epsilon-object's earlier version carries "glass" and its latest does not: "glass" has a page all the same.
    await writeVersion(root, { id: 'epsilon-object', version: '1.0.0', tags: ['glass'], publishedAt: '2020-01-01T00:00:00Z', files: await picture(5) });
    await writeVersion(root, { id: 'epsilon-object', version: '1.1.0', tags: ['plain'], publishedAt: '2020-01-02T00:00:00Z', files: await picture(6) });
    const middleData = await load();
    expect(middleData.tags.find((t) => t.tag === 'glass')).toMatchObject({ slug: 'glass', objectIds: ['epsilon-object'] });
    const middle = pageDigests(middleData, 'code-1');
    await writeVersion(root, { id: 'delta-object', version: '1.0.0', tags: ['glass'], files: await picture(7) });
    const after = pageDigests(await load(), 'code-1');
    for (const path of ['objects/epsilon-object/', 'objects/epsilon-object/versions/1.0.0/', 'objects/epsilon-object/versions/1.1.0/']) {
      expect(after.get(path), path).toBe(middle.get(path));
    }
  });

  it("keeps a version's documents when only the slug of its tag's page changes on its record page", async () => {
    await writeVersion(root, { id: 'zeta-object', version: '1.0.0', tags: ['Metal'], files: await picture(8) });
    const before = pageDigests(await load(), 'code-1');
    // "metal" comes: it takes the slug "metal" and moves "Metal" to "metal-2".
    await writeVersion(root, { id: 'eta-object', version: '1.0.0', tags: ['metal'], files: await picture(9) });
    const data = await load();
    expect(data.tags.filter((t) => t.slug.startsWith('metal')).map((t) => [t.tag, t.slug])).toEqual([['metal', 'metal'], ['Metal', 'metal-2']]);
    const after = pageDigests(data, 'code-1');
    expect(after.get('objects/zeta-object/versions/1.0.0/')).not.toBe(before.get('objects/zeta-object/versions/1.0.0/'));
    expect(after.get(documentsKey('zeta-object', '1.0.0'))).toBe(before.get(documentsKey('zeta-object', '1.0.0')));
  });

  it('gives the documents digests that do not depend on the thumbnails, which a build makes while they are made', async () => {
    const data = await load();
    expect(data.objects.every((o) => o.versions.every((v) => v.thumbnail))).toBe(true);
    // The data as the build has it when the check ends: no thumbnail yet.
    const early: SiteData = { ...data, objects: data.objects.map((o) => ({ ...o, versions: o.versions.map((v) => ({ ...v, thumbnail: null })) })) };
    const documents = documentDigests(early, 'code-1');
    expect(documentDigests(data, 'code-1')).toEqual(documents);
    const pages = pageDigests(data, 'code-1', documents);
    expect(pages).toEqual(pageDigests(data, 'code-1'));
    const pagesEarly = pageDigests(early, 'code-1');
    for (const [path, digest] of documents) expect(pages.get(path), path).toBe(digest);
    expect(pages.get('objects/alpha-object/')).not.toBe(pagesEarly.get('objects/alpha-object/'));
    expect(pages.get('objects/alpha-object/versions/1.0.0/')).not.toBe(pagesEarly.get('objects/alpha-object/versions/1.0.0/'));
  });

  it("changes an object's pages, not its documents, when a thumbnail of one of its versions changes", async () => {
    const data = await load();
    const before = pageDigests(data, 'code-1');
    const entry = data.objects.find((o) => o.id === 'beta-object')!.versions[0]!;
    entry.thumbnail = { ...entry.thumbnail!, height: entry.thumbnail!.height + 1 };
    const after = pageDigests(data, 'code-1');
    expect(after.get('objects/beta-object/')).not.toBe(before.get('objects/beta-object/'));
    expect(after.get('objects/beta-object/versions/1.0.0/')).not.toBe(before.get('objects/beta-object/versions/1.0.0/'));
    expect(after.get(documentsKey('beta-object', '1.0.0'))).toBe(before.get(documentsKey('beta-object', '1.0.0')));
    expect(after.get('objects/alpha-object/')).toBe(before.get('objects/alpha-object/'));
  });
});

describe('embed and compare pages', () => {
  it("change an object's compare page when it gets a version, and an embed page with its version's documents only", async () => {
    await writeVersion(root, { id: 'theta-object', version: '1.0.0', tags: ['wood'], files: await picture(10) });
    const before = pageDigests(await load(), 'code-1');
    expect(before.has('objects/theta-object/compare/')).toBe(false);
    expect(before.get('objects/theta-object/versions/1.0.0/embed/')).toBeDefined();
    await writeVersion(root, { id: 'theta-object', version: '1.1.0', tags: ['wood'], files: await picture(11) });
    const data = await load();
    const after = pageDigests(data, 'code-1');
    const compare = after.get('objects/theta-object/compare/');
    expect(compare).toBeDefined();
    expect(after.get('objects/theta-object/versions/1.1.0/embed/')).toBeDefined();
    expect(after.get('objects/beta-object/versions/1.0.0/embed/')).toBe(before.get('objects/beta-object/versions/1.0.0/embed/'));
    // A thumbnail changes the record page, not the embed page (which shows the viewer, not the thumbnail).
    const entry = data.objects.find((o) => o.id === 'theta-object')!.versions[0]!;
    entry.thumbnail = { ...entry.thumbnail!, width: entry.thumbnail!.width + 1 };
    const thumbnailed = pageDigests(data, 'code-1');
    const { version } = entry.manifest;
    expect(thumbnailed.get(`objects/theta-object/versions/${version}/`)).not.toBe(after.get(`objects/theta-object/versions/${version}/`));
    expect(thumbnailed.get(`objects/theta-object/versions/${version}/embed/`)).toBe(after.get(`objects/theta-object/versions/${version}/embed/`));
    expect(thumbnailed.get('objects/theta-object/compare/')).toBe(compare);
    await writeVersion(root, { id: 'theta-object', version: '1.2.0', tags: ['wood'], files: await picture(12) });
    expect(pageDigests(await load(), 'code-1').get('objects/theta-object/compare/')).not.toBe(compare);
  });
});

describe('pagePaths', () => {
  it('lists the catalog, tags, objects, versions, worlds and the not-found page, each written where a host finds it', async () => {
    const paths = pagePaths(await load());
    expect(paths).toEqual(
      expect.arrayContaining(['', 'tags/', 'tags/wood/', 'tags/stone/', 'objects/alpha-object/', 'objects/alpha-object/versions/1.1.0/', 'objects/alpha-object/versions/1.1.0/embed/', 'objects/alpha-object/compare/', 'worlds/garden/', NOT_FOUND_PAGE]),
    );
    // A compare page needs two versions: beta-object has one.
    expect(paths).not.toContain('objects/beta-object/compare/');
    expect(paths.filter((p) => !inSitemap(p)).sort()).toEqual(paths.filter((p) => p === NOT_FOUND_PAGE || p.endsWith('/embed/') || p.endsWith('/compare/')).sort());
    expect(new Set(paths).size).toBe(paths.length);
    expect(pageFile('')).toBe('index.html');
    expect(pageFile('objects/alpha-object/')).toBe('objects/alpha-object/index.html');
    expect(pageFile(NOT_FOUND_PAGE)).toBe('404.html');
  });
});
