import { describe, expect, it } from 'vitest';
import { modelJsonLd } from '../../src/core/json-ld.ts';
import { digestOf, manifest, publication, rep } from './records.ts';

const PAGE = 'https://registry.test/objects/chair/versions/1.0.0/';
const MANIFEST_URL = 'https://registry.test/objects/chair/versions/1.0.0/aso.object.json';

describe('modelJsonLd', () => {
  it('describes the version as a schema.org 3DModel with its dates and identifier', () => {
    const m = manifest('chair', '1.0.0', { name: 'Oak chair', description: 'A chair.', tags: ['wood', 'seating'], createdAt: '2026-01-01T10:00:00Z' });
    const doc = modelJsonLd(m, publication('chair', '1.0.0', '2026-01-03T00:00:00Z'), PAGE, MANIFEST_URL);
    expect(doc).toMatchObject({
      '@context': 'https://schema.org',
      '@type': '3DModel',
      '@id': PAGE,
      url: PAGE,
      identifier: 'chair@1.0.0',
      name: 'Oak chair',
      description: 'A chair.',
      version: '1.0.0',
      keywords: ['wood', 'seating'],
      dateCreated: '2026-01-01T10:00:00Z',
      datePublished: '2026-01-03T00:00:00Z',
    });
  });

  it('points at the manifest with the hex of the record hash', () => {
    const doc = modelJsonLd(manifest('chair', '1.0.0'), publication('chair', '1.0.0'), PAGE, MANIFEST_URL);
    expect(doc.subjectOf).toEqual({
      '@type': 'DigitalDocument',
      url: MANIFEST_URL,
      encodingFormat: 'application/json',
      sha256: digestOf('chair@1.0.0').hex,
    });
  });

  it('lists every representation, then the preview, with size and hex SHA-256', () => {
    const m = manifest('chair', '1.0.0', { representations: [rep('mesh', 'glb'), rep('cloud', 'ply')], preview: rep('preview', 'png') });
    const doc = modelJsonLd(m, publication('chair', '1.0.0'), PAGE, MANIFEST_URL);
    expect(doc.encoding).toEqual(
      ['mesh', 'cloud', 'preview'].map((id) => {
        const r = [...m.representations, m.preview!].find((x) => x.id === id)!;
        return { '@type': 'MediaObject', name: id, contentUrl: r.url, encodingFormat: r.mediaType, contentSize: `${r.byteLength} bytes`, sha256: digestOf(id).hex };
      }),
    );
    expect(doc.image).toBe(m.preview!.url);
  });

  it('adds license and image only when the manifest declares them', () => {
    const bare = modelJsonLd(manifest('chair', '1.0.0'), publication('chair', '1.0.0'), PAGE, MANIFEST_URL);
    expect(bare).not.toHaveProperty('license');
    expect(bare).not.toHaveProperty('image');
    const licensed = modelJsonLd(manifest('chair', '1.0.0', { license: 'CC0-1.0' }), publication('chair', '1.0.0'), PAGE, MANIFEST_URL);
    expect(licensed.license).toBe('CC0-1.0');
  });

  it('refuses a record hash that is not an SRI string', () => {
    const pub = { ...publication('chair', '1.0.0'), recordHash: 'md5-abc' };
    expect(() => modelJsonLd(manifest('chair', '1.0.0'), pub, PAGE, MANIFEST_URL)).toThrow('"md5-abc" is not a sha256-<base64> integrity string');
  });
});
