/** Tag slugs name folders of the site: short enough for any file system. The catalog's order. */
import { describe, expect, it } from 'vitest';
import type { VersionRecord } from '../../src/core/api-documents.ts';
import { lastPublished, MAX_TAG_SLUG, newestFirst, tagSlug } from '../../src/core/catalog.ts';

describe('tagSlug', () => {
  it('makes a URL-safe slug', () => {
    expect(tagSlug('Low Poly!')).toBe('low-poly');
    expect(tagSlug('???')).toBe('tag');
  });

  it('cuts a long tag to a slug a file system can name', () => {
    const slug = tagSlug(`${'long '.repeat(100)}tag`);
    expect(slug.length).toBeLessThanOrEqual(MAX_TAG_SLUG);
    expect(slug).toMatch(/^long(-long)+$/);
  });
});

const v = (publishedAt: string) => ({ publication: { publishedAt } }) as unknown as VersionRecord;

describe('catalog order', () => {
  it('puts the object with the newest publication first, ties by id', () => {
    const objects = [
      { id: 'b', versions: [v('2026-01-01T00:00:00Z')] },
      { id: 'a', versions: [v('2026-01-01T00:00:00Z')] },
      { id: 'c', versions: [v('2025-01-01T00:00:00Z'), v('2026-02-01T00:00:00+01:00')] },
    ];
    expect(newestFirst(objects).map((o) => o.id)).toEqual(['c', 'a', 'b']);
    expect(lastPublished(objects[2]!)).toBe('2026-02-01T00:00:00+01:00');
  });
});
