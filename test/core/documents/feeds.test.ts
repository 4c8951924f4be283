import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import type { VersionRecord } from '@aso-registry/core/documents/api-documents';
import { atomFeed, feedEvents, jsonFeed } from '@aso-registry/core/documents/feeds';

const ORIGIN = 'https://registry.example.org';
let n = 0;
function version(id: string, v: string, publishedAt: string, extra: Partial<VersionRecord> & { name?: string } = {}): VersionRecord {
  n++;
  return {
    manifest: { schema: 'aso/object/v0.1', id, version: v, name: extra.name ?? id, description: '', tags: ['wood'], createdAt: publishedAt, provenance: {}, representations: [] },
    publication: { publicationId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, publishedAt, publisher: 'Ada', recordHash: `sha256-${'A'.repeat(43)}=` },
    retracted: extra.retracted ?? null,
  };
}

const versions = [
  version('oak-chair', '1.0.0', '2026-01-01T00:00:00Z', { name: 'Oak <chair> & "friends"\u0001' }),
  version('oak-chair', '1.0.1', '2026-01-03T00:00:00Z', { retracted: { reason: 'Wrong <b>license</b>.', retractedAt: '2026-01-05T00:00:00Z' } }),
  version('vase', '2.0.0', '2026-01-04T00:00:00Z'),
];

describe('feeds', () => {
  it('lists publications and retractions newest first, up to the limit', () => {
    const events = feedEvents(versions);
    expect(events.map((e) => `${e.kind} ${e.version.manifest.id}@${e.version.manifest.version}`)).toEqual([
      'retracted oak-chair@1.0.1',
      'published vase@2.0.0',
      'published oak-chair@1.0.1',
      'published oak-chair@1.0.0',
    ]);
    expect(feedEvents(versions, 2)).toHaveLength(2);
  });

  it('writes Atom that a feed parser reads back, with names as plain text', () => {
    const feed = parseAtomFeed(atomFeed(ORIGIN, versions));
    expect(feed.id).toBe(`${ORIGIN}/`);
    expect(feed.updated).toBe('2026-01-05T00:00:00Z');
    expect(feed.links?.find((l) => l.rel === 'self')?.href).toBe(`${ORIGIN}/feed.xml`);
    const entries = feed.entries!;
    expect(entries.map((e) => e.title)).toEqual([
      { value: 'Retracted oak-chair 1.0.1', type: 'text' },
      { value: 'Published vase 2.0.0', type: 'text' },
      { value: 'Published oak-chair 1.0.1', type: 'text' },
      { value: 'Published Oak <chair> & "friends"\uFFFD 1.0.0', type: 'text' },
    ]);
    expect(entries[0]!.id).toBe(`${ORIGIN}/objects/oak-chair/versions/1.0.1/#retracted`);
    expect(entries[0]!.summary?.value).toContain('retracted: Wrong <b>license</b>.');
    expect(entries[3]!.id).toBe(versions[0]!.publication.publicationId.replace(/^/, 'urn:uuid:'));
    expect(entries[3]!.links?.[0]?.href).toBe(`${ORIGIN}/objects/oak-chair/versions/1.0.0/`);
    expect(entries[3]!.categories).toEqual([{ term: 'wood' }]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('writes a JSON Feed 1.1 that a feed parser reads back, with text content only', () => {
    const text = jsonFeed(ORIGIN, versions);
    const feed = parseJsonFeed(JSON.parse(text));
    const items = feed.items ?? [];
    expect(JSON.parse(text).version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.feed_url).toBe(`${ORIGIN}/feed.json`);
    expect(items.map((i) => i.title)).toEqual(['Retracted oak-chair 1.0.1', 'Published vase 2.0.0', 'Published oak-chair 1.0.1', 'Published Oak <chair> & "friends"\u0001 1.0.0']);
    expect(items[0]!.content_text).toContain('Wrong <b>license</b>.');
    expect(items.every((i) => i.content_html === undefined)).toBe(true);
    expect(items[1]!.date_published).toBe('2026-01-04T00:00:00Z');
  });

  it('writes valid empty feeds for an empty registry', () => {
    expect(parseAtomFeed(atomFeed(ORIGIN, [])).entries ?? []).toEqual([]);
    expect(JSON.parse(jsonFeed(ORIGIN, [])).items).toEqual([]);
    expect(parseJsonFeed(JSON.parse(jsonFeed(ORIGIN, []))).title).toBe('ASO registry: publications and retractions');
  });
});
