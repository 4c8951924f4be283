import { describe, expect, it } from 'vitest';
import { licenseMatches, rankCatalog, type CatalogEntry } from '../../src/mcp/catalog-match.ts';

const entry = (id: string, name: string, tags: string[], description = ''): CatalogEntry => ({ id, name, tags, description });

const catalog = [
  entry('oak-table', 'Oak table', ['furniture', 'oak'], 'A table with a chair-height top.'),
  entry('lounge', 'Lounge seat', ['furniture', 'armchair']),
  entry('oak-chair', 'Oak chair', ['furniture', 'chair', 'oak']),
  entry('lamp', 'Lamp', ['lighting']),
];

describe('rankCatalog', () => {
  it('keeps entries holding every word, a word in the id or name first, then in a tag, then in the description', () => {
    expect(rankCatalog(catalog, 'chair').map((e) => e.id)).toEqual(['oak-chair', 'lounge', 'oak-table']);
    expect(rankCatalog(catalog, 'OAK chair').map((e) => e.id)).toEqual(['oak-chair', 'oak-table']);
    expect(rankCatalog(catalog, 'oak lighting')).toEqual([]);
  });

  it('matches every entry for an empty query, in the catalog order, and filters by all the tags given', () => {
    expect(rankCatalog(catalog, '  ').map((e) => e.id)).toEqual(['oak-table', 'lounge', 'oak-chair', 'lamp']);
    expect(rankCatalog(catalog, '', ['Furniture', 'oak']).map((e) => e.id)).toEqual(['oak-table', 'oak-chair']);
    expect(rankCatalog(catalog, '', ['arm'])).toEqual([]);
  });
});

describe('licenseMatches', () => {
  it('takes an SPDX id in any case, or one without its version', () => {
    expect(licenseMatches('CC0-1.0', 'CC0')).toBe(true);
    expect(licenseMatches('CC0-1.0', 'cc0-1.0')).toBe(true);
    expect(licenseMatches('CC-BY-4.0', 'CC-BY')).toBe(true);
    expect(licenseMatches('CC-BY-SA-4.0', 'CC-BY')).toBe(false);
    expect(licenseMatches('MIT', 'MIT')).toBe(true);
    expect(licenseMatches('MIT-0', 'MIT')).toBe(false);
    expect(licenseMatches('GPL-3.0-or-later', 'GPL')).toBe(true);
    expect(licenseMatches(null, 'CC0')).toBe(false);
    expect(licenseMatches('CC0-1.0', ' ')).toBe(false);
  });
});
