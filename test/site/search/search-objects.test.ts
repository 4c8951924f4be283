import { describe, expect, it } from 'vitest';
import { newestMatch, ObjectResults, objectOf, type VersionHit } from '../../../src/site/search/search-objects.ts';

/** A record page's hit as SearchMeta.astro describes it: `order` is its place in the version history, 0 the newest. */
const hit = (id: string, version: string, order: number, retracted = false): VersionHit => ({
  url: `/objects/${id}/versions/${version}/`,
  content: '',
  locations: [],
  meta: { object: id, version, order: String(order), retracted: String(retracted) },
});

/** Pagefind's results for these hits, in this order, counting the data each loads. */
function results(hits: VersionHit[]) {
  const loaded: string[] = [];
  return { loaded, list: hits.map((h) => ({ data: async () => (loaded.push(h.url), h) })) };
}

/** The `object` filter's counts of these hits, as Pagefind gives them for a search. */
const counts = (hits: VersionHit[]) => hits.reduce<Record<string, number>>((c, h) => ({ ...c, [h.meta.object!]: (c[h.meta.object!] ?? 0) + 1 }), {});

describe('objectOf and newestMatch', () => {
  it('reads the object from the meta, else from the record page URL', () => {
    expect(objectOf(hit('oak-chair', '1.0.0', 0))).toBe('oak-chair');
    expect(objectOf({ url: '/base/objects/vase/versions/2.0.0/', content: '', locations: [], meta: {} })).toBe('vase');
  });

  it('shows the newest version that matches, skipping retracted ones unless every match is retracted', () => {
    expect(newestMatch([hit('a', '1.0.0', 2), hit('a', '2.0.0-beta.1', 0), hit('a', '1.1.0', 1)]).meta.version).toBe('2.0.0-beta.1');
    expect(newestMatch([hit('a', '1.0.1', 1), hit('a', '1.0.2', 0, true)]).meta.version).toBe('1.0.1');
    expect(newestMatch([hit('a', '1.0.0', 1, true), hit('a', '1.0.2', 0, true)]).meta.version).toBe('1.0.2');
  });
});

describe('ObjectResults', () => {
  it('lists each object once, in the order of its first version, as its newest matching version', async () => {
    const hits = [hit('chair', '1.0.0', 2), hit('vase', '1.0.0', 0), hit('chair', '1.1.0', 1), hit('lamp', '3.0.0', 0)];
    const { list } = results(hits);
    const objects = new ObjectResults(list, counts(hits), async () => expect.unreachable());
    expect(objects.total).toBe(3);
    const first = await objects.next(2);
    expect(first.map((o) => `${o.id}@${o.shown.meta.version} (${o.matching})`)).toEqual(['chair@1.1.0 (2)', 'vase@1.0.0 (1)']);
    expect(objects.hasMore).toBe(true);
    expect((await objects.next(2)).map((o) => o.id)).toEqual(['lamp']);
    expect(objects.hasMore).toBe(false);
  });

  it('fetches the versions of a shown object that the loaded results do not hold, with a search narrowed to it', async () => {
    // Twelve results load at once: the chair's newest match is the fourteenth.
    const others = Array.from({ length: 12 }, (_, i) => hit(`object-${i}`, '1.0.0', 0));
    const hits = [hit('chair', '1.0.0', 2), ...others, hit('chair', '2.0.0', 0)];
    const { list, loaded } = results(hits);
    const asked: string[] = [];
    const objects = new ObjectResults(list, counts(hits), async (id) => {
      asked.push(id);
      return hits.filter((h) => h.meta.object === id);
    });
    const [chair] = await objects.next(1);
    expect(chair).toMatchObject({ id: 'chair', matching: 2 });
    expect(chair!.shown.meta.version).toBe('2.0.0');
    expect(asked).toEqual(['chair']);
    expect(loaded).toHaveLength(12);
  });

  it('counts pages as objects for an index without the object filter', async () => {
    const hits = [hit('a', '1.0.0', 0), hit('b', '1.0.0', 0)];
    const objects = new ObjectResults(results(hits).list, undefined, async () => []);
    expect(objects.total).toBe(2);
    expect((await objects.next(10)).map((o) => o.id)).toEqual(['a', 'b']);
  });
});
