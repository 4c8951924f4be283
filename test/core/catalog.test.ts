/** Tag slugs name folders of the site: short enough for any file system. */
import { describe, expect, it } from 'vitest';
import { MAX_TAG_SLUG, tagSlug } from '../../src/core/catalog.ts';

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
