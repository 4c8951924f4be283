import { describe, expect, it } from 'vitest';
import { licenseNode, mediaObjectType, modelJsonLd } from '@aso-registry/core/documents/json-ld';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { expandOffline, iriProblems } from '../../support/json-ld.ts';

const S = 'https://schema.org/';
const hash = (c: string) => `sha256-${c.repeat(43)}=`;

function manifest(license?: string): Manifest {
  const rep = (id: string, type: string, format: string, mediaType: string) => ({
    id, type, format, mediaType, url: `https://registry.example.org/objects/oak-chair/versions/1.0.0/representations/${id}.${format}`, byteLength: 1234, hash: hash('A'),
  });
  return {
    schema: 'aso/object/v0.1', id: 'oak-chair', version: '1.0.0', name: 'Oak chair', description: 'A chair.', tags: ['wood'],
    createdAt: '2026-01-01T00:00:00Z', ...(license !== undefined ? { license } : {}), provenance: {},
    representations: [rep('mesh', 'mesh', 'glb', 'model/gltf-binary'), rep('cloud', 'point-cloud', 'ply', 'application/octet-stream')],
    preview: rep('preview', 'image', 'png', 'image/png'),
  };
}
const publication: PublicationRecord = { publicationId: '6f1c2b1e-8a1e-4a43-9f3b-2b6f0b7c1d11', publishedAt: '2026-01-02T00:00:00Z', publisher: 'me', recordHash: hash('B') };
const ld = (license?: string) => modelJsonLd(manifest(license), publication, 'https://registry.example.org/objects/oak-chair/versions/1.0.0/', 'https://registry.example.org/objects/oak-chair/versions/1.0.0/aso.object.json');

describe('JSON-LD', () => {
  it('expands offline to schema.org IRIs only, with sha256 on media objects only', async () => {
    for (const license of ['MIT', 'All rights reserved', 'https://example.org/terms', undefined]) {
      const expanded = await expandOffline(ld(license));
      expect(iriProblems(expanded), String(license)).toEqual([]);
      const node = expanded[0] as Record<string, unknown>;
      expect(node['@type']).toEqual([`${S}3DModel`]);
      expect(node['@id']).toBe('https://registry.example.org/objects/oak-chair/versions/1.0.0/');
    }
  });

  it('makes an SPDX license its SPDX URL and keeps other text as text, never a made-up IRI', async () => {
    const spdx = (await expandOffline(ld('CC-BY-4.0')))[0] as Record<string, unknown>;
    expect(spdx[`${S}license`]).toEqual([{ '@id': 'https://spdx.org/licenses/CC-BY-4.0.html' }]);
    const text = (await expandOffline(ld('Oak & Co. terms')))[0] as Record<string, unknown>;
    expect(text[`${S}license`]).toEqual([{ '@type': [`${S}CreativeWork`], [`${S}name`]: [{ '@value': 'Oak & Co. terms' }] }]);
    expect(JSON.stringify(text)).not.toContain('Oak%20');
    expect(licenseNode('https://example.org/terms')).toBe('https://example.org/terms');
  });

  it('describes each file as a 3DModel, ImageObject or MediaObject with its size, format and hex SHA-256', async () => {
    const node = (await expandOffline(ld('MIT')))[0] as Record<string, Array<Record<string, unknown>>>;
    const encodings = node[`${S}encoding`]!;
    expect(encodings.map((e) => e['@type'])).toEqual([[`${S}3DModel`], [`${S}MediaObject`], [`${S}ImageObject`]]);
    expect(encodings[0]![`${S}contentUrl`]).toEqual([{ '@id': 'https://registry.example.org/objects/oak-chair/versions/1.0.0/representations/mesh.glb' }]);
    expect(encodings[0]![`${S}encodingFormat`]).toEqual([{ '@value': 'model/gltf-binary' }]);
    expect(encodings[0]![`${S}contentSize`]).toEqual([{ '@value': '1234 B' }]);
    expect(encodings[0]![`${S}sha256`]).toEqual([{ '@value': '0'.repeat(64) }]);
    const manifestNode = node[`${S}subjectOf`]![0]!;
    expect(manifestNode['@type']).toEqual([`${S}MediaObject`]);
    // sha256-BBB…= is the bytes 04 10 41 repeated: the hex of the record hash.
    expect(manifestNode[`${S}sha256`]).toEqual([{ '@value': '041'.repeat(22).slice(0, 64) }]);
  });

  it('names the schema.org type of each kind of file', () => {
    expect(mediaObjectType({ type: 'mesh', format: 'gltf', mediaType: 'model/gltf+json' })).toBe('3DModel');
    expect(mediaObjectType({ type: 'image', format: 'webp', mediaType: 'image/webp' })).toBe('ImageObject');
    expect(mediaObjectType({ type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream' })).toBe('MediaObject');
  });

  it('the check finds the made-up IRI that a bare license identifier becomes', async () => {
    const bad = { ...ld('MIT'), license: 'MIT' };
    expect(iriProblems(await expandOffline(bad))).toEqual(['/0/https://schema.org/license/0: @id "MIT" is not an absolute URL']);
  });
});
