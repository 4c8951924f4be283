import { describe, expect, it } from 'vitest';
import { sitemapLastmod } from '../../src/core/sitemap.ts';

describe('sitemap lastmod', () => {
  const lastmod = sitemapLastmod('https://registry.example.org', [
    { id: 'oak', version: '1.0.0', publishedAt: '2026-01-01T00:00:00Z' },
    { id: 'oak', version: '1.0.1', publishedAt: '2026-01-02T00:00:00Z', retractedAt: '2026-01-10T00:00:00Z' },
    { id: 'vase', version: '1.0.0', publishedAt: '2026-01-05T00:00:00Z' },
  ]);

  it('dates a record page by its version and the object history it lists', () => {
    expect(lastmod('https://registry.example.org/objects/vase/versions/1.0.0/')).toBe('2026-01-05T00:00:00.000Z');
    expect(lastmod('https://registry.example.org/objects/oak/versions/1.0.0/')).toBe('2026-01-10T00:00:00.000Z');
  });

  it('dates an object page by its newest event and every other page by the registry newest', () => {
    expect(lastmod('https://registry.example.org/objects/vase/')).toBe('2026-01-05T00:00:00.000Z');
    expect(lastmod('https://registry.example.org/')).toBe('2026-01-10T00:00:00.000Z');
    expect(lastmod('https://registry.example.org/tags/wood/page/2/')).toBe('2026-01-10T00:00:00.000Z');
    expect(lastmod('https://elsewhere.example.org/')).toBeUndefined();
  });
});
