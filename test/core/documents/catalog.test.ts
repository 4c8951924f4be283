import { describe, expect, it } from 'vitest';
import type { VersionRecord } from '@aso-registry/core/documents/api-documents';
import { groupObjects, lastPublished, MAX_TAG_SLUG, newestFirst, tagIndex, tagSlug, tagSlugs } from '@aso-registry/core/documents/catalog';
import { record } from '../records.ts';

const at = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00Z`;
const retraction = { reason: 'wrong scale', retractedAt: at(20) };

describe('groupObjects', () => {
  it('groups versions by id, objects sorted by id', () => {
    const objects = groupObjects([record('table', '1.0.0'), record('chair', '1.0.0'), record('table', '1.1.0', { createdAt: at(5) })]);
    expect(objects.map((o) => o.id)).toEqual(['chair', 'table']);
    expect(objects[1]!.versions.map((v) => v.manifest.version)).toEqual(['1.1.0', '1.0.0']);
  });

  it('orders versions newest first by creation time, ties by SemVer precedence', () => {
    const [chair] = groupObjects([
      record('chair', '2.0.0', { createdAt: at(2) }),
      record('chair', '1.0.0', { createdAt: at(3) }),
      record('chair', '1.0.10', { createdAt: at(1) }),
      record('chair', '1.0.9', { createdAt: at(1) }),
    ]);
    expect(chair!.versions.map((v) => v.manifest.version)).toEqual(['1.0.0', '2.0.0', '1.0.10', '1.0.9']);
  });

  it('takes the highest release as latest, not the newest or a prerelease', () => {
    const [chair] = groupObjects([
      record('chair', '1.2.0', { createdAt: at(1) }),
      record('chair', '1.10.0', { createdAt: at(2) }),
      record('chair', '2.0.0-rc.1', { createdAt: at(3) }),
      record('chair', '1.3.0', { createdAt: at(4) }),
    ]);
    expect(chair!.latest).toBe('1.10.0');
  });

  it('skips retracted versions for latest but keeps them in the history', () => {
    const [chair] = groupObjects([record('chair', '1.0.0'), record('chair', '1.1.0', {}, retraction)]);
    expect(chair!.latest).toBe('1.0.0');
    expect(chair!.versions.map((v) => v.manifest.version)).toEqual(['1.1.0', '1.0.0']);
  });

  it('falls back to the highest version when every version is retracted', () => {
    const [chair] = groupObjects([record('chair', '1.0.0', {}, retraction), record('chair', '1.1.0', {}, retraction)]);
    expect(chair!.latest).toBe('1.1.0');
  });

  it('keeps the records it was given (extra fields included)', () => {
    const v = { ...record('chair', '1.0.0'), pagePath: 'objects/chair/' };
    expect(groupObjects([v])[0]!.versions[0]).toBe(v);
    expect(groupObjects([])).toEqual([]);
  });
});

describe('tagIndex', () => {
  it('lists the tags of each latest version, sorted, with the objects that carry them', () => {
    const objects = groupObjects([
      record('lamp', '1.0.0', { tags: ['lighting', 'brass'] }),
      record('chair', '1.0.0', { tags: ['seating', 'wood'] }),
      record('stool', '1.0.0', { tags: ['seating'] }),
    ]);
    expect([...tagIndex(objects)]).toEqual([
      ['brass', ['lamp']],
      ['lighting', ['lamp']],
      ['seating', ['chair', 'stool']],
      ['wood', ['chair']],
    ]);
  });

  it('keeps the tags of older and retracted versions, so that every record page links a tag page', () => {
    const objects = groupObjects([
      record('chair', '1.0.0', { tags: ['old', 'wood'] }),
      record('chair', '1.1.0', { tags: ['new', 'wood'], createdAt: at(2) }),
      record('chair', '1.2.0', { tags: ['withdrawn'], createdAt: at(3) }, retraction),
      record('stool', '1.0.0', { tags: ['wood'] }),
    ]);
    expect([...tagIndex(objects)]).toEqual([
      ['new', ['chair']],
      ['old', ['chair']],
      ['withdrawn', ['chair']],
      ['wood', ['chair', 'stool']],
    ]);
  });
});

describe('tagSlug', () => {
  it('lowercases, folds accents and joins words with single dashes', () => {
    expect(tagSlug('Mid-Century  Modern')).toBe('mid-century-modern');
    expect(tagSlug('Café')).toBe('cafe');
    expect(tagSlug('  --3D/print--  ')).toBe('3d-print');
  });

  it('cuts a long tag to a slug a file system can name', () => {
    const slug = tagSlug(`${'long '.repeat(100)}tag`);
    expect(slug.length).toBeLessThanOrEqual(MAX_TAG_SLUG);
    expect(slug).toMatch(/^long(-long)+$/);
  });

  it('gives "tag" when nothing URL-safe is left', () => {
    expect(tagSlug('家具')).toBe('tag');
    expect(tagSlug('!!!')).toBe('tag');
  });
});

describe('tagSlugs', () => {
  it('gives each tag its slug when no other tag shares it', () => {
    expect(tagSlugs(['Wood', 'stone'])).toEqual(new Map([['Wood', 'wood'], ['stone', 'stone']]));
  });

  it('leaves a shared slug to the tag that is its own slug and numbers the others in code-point order', () => {
    const slugs = tagSlugs(['Wood', 'WOOD', 'wood']);
    expect(slugs.get('wood')).toBe('wood');
    expect([slugs.get('WOOD'), slugs.get('Wood')]).toEqual(['wood-2', 'wood-3']);
  });

  it('moves no other tag when a tag with another slug comes, and skips numbers that are slugs of their own', () => {
    const before = tagSlugs(['chair', 'Wood', 'wood-2']);
    const after = tagSlugs(['chair', 'Wood', 'wood-2', 'vase', 'wood']);
    expect(before.get('Wood')).toBe('wood');
    expect(after.get('chair')).toBe(before.get('chair'));
    expect(after.get('wood-2')).toBe('wood-2');
    // "wood" itself comes: it takes its own slug and "Wood" takes the first number no tag owns.
    expect([after.get('wood'), after.get('Wood')]).toEqual(['wood', 'wood-3']);
  });

  it('keeps a numbered slug of a long tag within MAX_TAG_SLUG', () => {
    const long = 'x'.repeat(MAX_TAG_SLUG);
    const slugs = tagSlugs([long, long.toUpperCase()]);
    expect(slugs.get(long)).toBe(long);
    expect(slugs.get(long.toUpperCase())!.length).toBeLessThanOrEqual(MAX_TAG_SLUG);
    expect(new Set(slugs.values()).size).toBe(2);
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
