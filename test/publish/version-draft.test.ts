import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { manifestProblems } from '@aso-registry/core/format/validate-manifest';
import { buildManifest, buildPublication, manifestBytes, rfc3339, sha256Hex, type VersionDraft, type VersionFile } from '../../src/publish/version-draft.ts';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const b64 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');
const file = (id: string, format: string, type: string, mediaType: string, text: string, role: string, assetId?: string): VersionFile => ({
  rep: { id, type, format, mediaType },
  role,
  bytes: new TextEncoder().encode(text),
  width: type === 'image' ? 40 : null,
  height: type === 'image' ? 30 : null,
  ...(assetId ? { assetId } : {}),
});
const draft = (over: Partial<VersionDraft> = {}): VersionDraft => ({
  id: 'oak-chair',
  version: '1.1.0+build.2',
  name: 'Oak chair',
  description: 'A chair.',
  tags: ['wood'],
  createdAt: '2026-01-01T00:00:00Z',
  provenance: { source: 'photo.jpg', generator: { model: 'relief' } },
  representations: [file('primary', 'glb', 'mesh', 'model/gltf-binary', 'glTF bytes', 'asset', 'asset-1'), file('reference', 'jpg', 'image', 'image/jpeg', 'jpeg bytes', 'reference-image')],
  preview: file('preview', 'png', 'image', 'image/png', 'png bytes', 'preview'),
  ...over,
});

describe('buildManifest', () => {
  it('derives url, byte length and hash of every file from its bytes', () => {
    const m = buildManifest(draft(), 'https://registry.test/');
    expect(m.representations[0]).toEqual({
      id: 'primary',
      type: 'mesh',
      format: 'glb',
      mediaType: 'model/gltf-binary',
      url: 'https://registry.test/objects/oak-chair/versions/1.1.0+build.2/representations/primary.glb',
      byteLength: 10,
      hash: `sha256-${b64(new TextEncoder().encode('glTF bytes'))}`,
    });
    expect(m.preview).toMatchObject({ id: 'preview', url: 'https://registry.test/objects/oak-chair/versions/1.1.0+build.2/representations/preview.png' });
    expect(manifestProblems(m)).toEqual([]);
  });

  it('lists every file in provenance.outputs, keeping an asset id when given, and records where it is stored', () => {
    const m = buildManifest(draft(), 'https://registry.test');
    const outputs = m.provenance.outputs as Array<Record<string, unknown>>;
    expect(outputs.map((o) => [o.role, o.width, o.height, o.byteLength, o.mediaType])).toEqual([
      ['asset', null, null, 10, 'model/gltf-binary'],
      ['reference-image', 40, 30, 10, 'image/jpeg'],
      ['preview', 40, 30, 9, 'image/png'],
    ]);
    expect(outputs[0]).toMatchObject({ assetId: 'asset-1', sha256: hex(new TextEncoder().encode('glTF bytes')), url: m.representations[0]!.url });
    expect(outputs[1]!.assetId).toMatch(/^[0-9a-f-]{36}$/);
    expect(outputs[1]!.assetId).not.toBe(outputs[2]!.assetId);
    expect(m.provenance.storage).toEqual({ provider: 'git', sourceKey: 'registry/objects/oak-chair/versions/1.1.0+build.2' });
    expect(m.provenance.source).toBe('photo.jpg');
    expect(m.provenance.generator).toEqual({ model: 'relief' });
    expect(Object.keys(m.provenance)).toEqual(['source', 'outputs', 'storage', 'generator']);
  });

  it('writes license and generator only when the draft has them, and no preview without one', () => {
    const bare = buildManifest(draft({ preview: undefined, provenance: {} }), 'https://registry.test');
    expect(bare).not.toHaveProperty('license');
    expect(bare).not.toHaveProperty('generator');
    expect(bare).not.toHaveProperty('preview');
    expect(bare.provenance).not.toHaveProperty('source');
    const full = buildManifest(draft({ license: 'CC0-1.0', generator: 'relief 1.0.0' }), 'https://registry.test');
    expect([full.license, full.generator]).toEqual(['CC0-1.0', 'relief 1.0.0']);
  });
});

describe('manifestBytes', () => {
  it('is two-space JSON with a final newline', () => {
    const m = buildManifest(draft(), 'https://registry.test');
    const text = new TextDecoder().decode(manifestBytes(m));
    expect(text).toBe(`${JSON.stringify(m, null, 2)}\n`);
    expect(text.startsWith('{\n  "schema": "aso/object/v0.1",\n')).toBe(true);
  });
});

describe('buildPublication', () => {
  it('binds the record to the exact manifest bytes, to the second in UTC', async () => {
    const bytes = new TextEncoder().encode('{"a":1}\n');
    const pub = await buildPublication(bytes, 'ada', new Date('2026-05-06T07:08:09.987Z'));
    expect(pub).toEqual({ publicationId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), publishedAt: '2026-05-06T07:08:09Z', publisher: 'ada', recordHash: `sha256-${b64(bytes)}` });
    expect((await buildPublication(bytes, 'ada')).publicationId).not.toBe(pub.publicationId);
  });
});

describe('rfc3339 and sha256Hex', () => {
  it('format a time and a digest', () => {
    expect(rfc3339(new Date('2026-01-02T03:04:05.678+02:00'))).toBe('2026-01-02T01:04:05Z');
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
