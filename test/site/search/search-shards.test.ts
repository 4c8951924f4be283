/** How record pages are split into shards of the search index, and which shards a change touches. */
import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_SHARDS,
  SEARCH_SHARD_PAGES,
  searchShardCount,
    searchShardDir,
  searchShardOf,
  searchShardOfPage,
  searchShardPages,
  searchShards,
} from '../../../src/site/search/search-shards.ts';

/** `n` objects of `versions` versions each. */
const objects = (n: number, versions = 1) => Array.from({ length: n }, (_, i) => ({ id: `object-${i}`, versions: new Array<number>(versions).fill(0) }));

describe('searchShardCount', () => {
  it('is one shard up to the pages a shard holds, then the power of two that keeps shards about that size', () => {
    expect(searchShardCount(objects(1000), 1000)).toBe(1);
    expect(searchShardCount(objects(1001), 1000)).toBe(2);
    expect(searchShardCount(objects(10_000), 1000)).toBe(16);
    expect(searchShardCount(objects(2000, 5), 1000)).toBe(16);
  });

  it('stops at MAX_SEARCH_SHARDS', () => {
    expect(searchShardCount(objects(5000), 10)).toBe(MAX_SEARCH_SHARDS);
  });

  it('halves the count until no shard is empty: few objects with many versions make few shards', () => {
    const count = searchShardCount(objects(3, 1000), 100);
    expect(count).toBeLessThan(32);
    const filled = new Set(objects(3).map((o) => searchShardOf(o.id, count)));
    expect(filled.size).toBe(count);
    expect(searchShardCount(objects(1, 5000), 100)).toBe(1);
    expect(searchShardCount([], 100)).toBe(1);
  });
});

describe('searchShardOf', () => {
  it('puts an object in the same shard on every build, and halving the count merges shard n + count/2 into n', () => {
    for (const { id } of objects(200)) {
      const at16 = searchShardOf(id, 16);
      expect(searchShardOf(id, 16)).toBe(at16);
      expect(searchShardOf(id, 8)).toBe(at16 % 8);
    }
  });

  it('spreads objects over the shards', () => {
    const sizes = new Array<number>(16).fill(0);
    for (const { id } of objects(1600)) sizes[searchShardOf(id, 16)]! += 1;
    for (const size of sizes) expect(size).toBeGreaterThan(50);
  });
});

describe('searchShardOfPage and searchShardDir', () => {
  it('gives a record page the shard of its object, and other pages none', () => {
    expect(searchShardOfPage('objects/object-7/versions/1.2.0/', 16)).toBe(searchShardOf('object-7', 16));
    expect(searchShardOfPage('objects/object-7/', 16)).toBeUndefined();
    expect(searchShardOfPage('tags/wood/', 16)).toBeUndefined();
  });

  it('keeps shard 0 in pagefind/ and the others in folders of their own under it', () => {
    expect(searchShardDir(0)).toBe('pagefind');
    expect(searchShardDir(3)).toBe('pagefind/shard-3');
  });
});

describe('searchShards', () => {
  const pages = new Map(objects(64).flatMap(({ id }) => [[`objects/${id}/versions/1.0.0/`, `digest of ${id}`], [`objects/${id}/`, 'object page'], [`documents:objects/${id}/versions/1.0.0/`, 'documents']]));

  it('counts the record pages of each shard, and only record pages', () => {
    const shards = searchShards(pages, 8);
    expect(shards.reduce((n, s) => n + s.paths.length, 0)).toBe(64);
    const shard = searchShardOf('object-5', 8);
    const own = objects(64).filter((o) => searchShardOf(o.id, 8) === shard);
    // In the order Pagefind takes them: sorted, whatever the order of the digests.
    expect(shards[shard]!.paths).toEqual(own.map((o) => `objects/${o.id}/versions/1.0.0/`).sort());
    expect(searchShards(new Map([...pages].reverse()), 8)).toEqual(shards);
  });

  it('changes the digest of the shard whose record page changed, and of no other', () => {
    const before = searchShards(pages, 8).map((s) => s.digest);
    const changed = new Map(pages).set('objects/object-5/versions/1.0.0/', 'another digest');
    const after = searchShards(changed, 8).map((s) => s.digest);
    const shard = searchShardOf('object-5', 8);
    for (let n = 0; n < 8; n++) expect(after[n] === before[n], `shard ${n}`).toBe(n !== shard);
  });

  it('changes the digest of the shard a version is added to, and every digest when the count changes', () => {
    const before = searchShards(pages, 8).map((s) => s.digest);
    const added = new Map(pages).set('objects/object-5/versions/1.1.0/', 'new');
    expect(searchShards(added, 8).map((s) => s.digest).filter((d, n) => d !== before[n])).toHaveLength(1);
    const other = searchShards(pages, 4).map((s) => s.digest);
    expect(other.some((d) => before.includes(d))).toBe(false);
  });
});

describe('searchShardPages', () => {
  it('reads ASO_SEARCH_SHARD_PAGES, else the default', () => {
    expect(searchShardPages({})).toBe(SEARCH_SHARD_PAGES);
    expect(searchShardPages({ ASO_SEARCH_SHARD_PAGES: ' 64 ' })).toBe(64);
  });

  it('refuses what is not a whole number of pages, naming the variable', () => {
    for (const raw of ['0', '-3', '2.5', 'many']) expect(() => searchShardPages({ ASO_SEARCH_SHARD_PAGES: raw })).toThrow(/ASO_SEARCH_SHARD_PAGES must be a whole number/);
  });
});
