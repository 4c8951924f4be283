import { describe, expect, it } from 'vitest';
import { SITEMAP_URLS_PER_FILE, sitemapFiles, sitemapLastmod } from '@aso-registry/core/documents/sitemap';

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

describe('sitemap files', () => {
  it('writes an index and a urlset with every URL, its lastmod when known, XML-escaped', () => {
    const files = sitemapFiles('https://registry.example.org/', ['https://registry.example.org/', 'https://registry.example.org/objects/a&b/'], (url) => (url.endsWith('/objects/a&b/') ? '2026-01-01T00:00:00.000Z' : undefined));
    expect(files.map((f) => f.path)).toEqual(['sitemap-index.xml', 'sitemap-0.xml']);
    expect(files[0]!.body).toBe('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://registry.example.org/sitemap-0.xml</loc></sitemap></sitemapindex>');
    expect(files[1]!.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<url><loc>https://registry.example.org/</loc></url>' +
        '<url><loc>https://registry.example.org/objects/a&amp;b/</loc><lastmod>2026-01-01T00:00:00.000Z</lastmod></url></urlset>',
    );
  });

  it('splits the URLs into files the protocol accepts', () => {
    const urls = Array.from({ length: SITEMAP_URLS_PER_FILE + 1 }, (_, i) => `https://registry.example.org/objects/o${i}/`);
    const files = sitemapFiles('https://registry.example.org', urls, () => undefined);
    expect(files.map((f) => f.path)).toEqual(['sitemap-index.xml', 'sitemap-0.xml', 'sitemap-1.xml']);
    expect(files[1]!.body.match(/<url>/g)).toHaveLength(SITEMAP_URLS_PER_FILE);
    expect(files[2]!.body.match(/<url>/g)).toHaveLength(1);
    expect(files[0]!.body).toContain('<loc>https://registry.example.org/sitemap-1.xml</loc>');
  });
});
