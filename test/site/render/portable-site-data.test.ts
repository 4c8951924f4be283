/** The site data a render thread gets: what crosses a structured clone, and what it is rebuilt into on the other side. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portableSiteData, siteDataOf, type PortableSiteData } from '../../../src/site/render/portable-site-data.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let data: SiteData;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-portable-'));
  data = await loadSampleSite(join(work, 'cache'));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('portableSiteData and siteDataOf', () => {
  it('carry the objects, catalog, tags, keys and the log across a structured clone', () => {
    const portable = portableSiteData(data);
    expect(portable).not.toHaveProperty('thumbnailFiles');
    expect(portable.log!.lines).toEqual(data.log!.lines);
    const there = siteDataOf(deserialize(serialize(portable)) as PortableSiteData);
    expect(there.objects).toEqual(data.objects);
    expect(there.catalog.map((o) => o.id)).toEqual(data.catalog.map((o) => o.id));
    // One object, not two copies of it: the catalog holds the objects of `objects`.
    expect(there.catalog[0]).toBe(there.objects.find((o) => o.id === there.catalog[0]!.id));
    expect(there.tags).toEqual(data.tags);
    expect(there.keys.logKey?.text).toBe(data.keys.logKey?.text);
    expect(there.log!.checkpoint).toEqual(data.log!.checkpoint);
    expect(there.log!.leafOf).toEqual(data.log!.leafOf);
    expect(there.log!.tree.size).toBe(data.log!.tree.size);
    // The same tree, without hashing the ledger again: the same root and proofs at every size.
    for (let size = 1; size <= data.log!.tree.size; size++) {
      expect(there.log!.tree.root(size)).toEqual(data.log!.tree.root(size));
      expect(there.log!.tree.inclusionProof(size - 1, size)).toEqual(data.log!.tree.inclusionProof(size - 1, size));
    }
  });

  it('leave the thumbnails\' cache files behind: the build thread copies them, pages link each version\'s thumbnail path', () => {
    expect(data.thumbnailFiles.size).toBeGreaterThan(0);
    const there = siteDataOf(deserialize(serialize(portableSiteData(data))) as PortableSiteData);
    expect(there.thumbnailFiles.size).toBe(0);
    const withThumbnail = there.objects.flatMap((o) => o.versions).find((v) => v.thumbnail);
    expect(data.thumbnailFiles.has(withThumbnail!.thumbnail!.path)).toBe(true);
  });
});
