import { describe, expect, it } from 'vitest';
import { apiVersion } from '@aso-registry/core/documents/api-documents';
import { groupObjects } from '@aso-registry/core/documents/catalog';
import { comparePair, compareVersions, shownRepresentation, type ComparableVersion } from '@aso-registry/core/documents/version-comparison';
import type { GltfInventory } from '@aso-registry/core/format/gltf-inventory';
import { record, REGISTRY, rep } from '../records.ts';

const inventory = (over: Partial<GltfInventory>): GltfInventory => ({
  triangles: 132, vertices: 264, drawCalls: 1, materials: 1, textures: 1, animations: 0, skins: 0, extensionsUsed: [], extensionsRequired: [], ...over,
});

const older = record('chair', '1.0.0', { representations: [rep('mesh', 'glb', { byteLength: 17_164 }), rep('reference', 'jpg')], preview: rep('preview', 'png'), tags: ['oak'], license: 'CC0-1.0' });
const newer = record('chair', '1.1.0', {
  createdAt: '2026-02-01T00:00:00Z',
  representations: [rep('mesh', 'glb', { byteLength: 21_504 }), rep('reference', 'jpg')],
  preview: rep('preview', 'png'),
  tags: ['oak', 'wood'],
  license: 'CC0-1.0',
});
older.gltf = { mesh: inventory({}) };
newer.gltf = { mesh: inventory({ triangles: 192, vertices: 384, extensionsUsed: ['KHR_texture_transform'] }) };
const chair = groupObjects([older, newer])[0]!;
const doc = (v: typeof older) => apiVersion(REGISTRY, chair, v, [{ id: 'room', name: 'Reading room', objects: [{ id: 'chair', version: '1.1.0' }] }]);

const rowsOf = (rows: ReturnType<typeof compareVersions>['facts']) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('compareVersions', () => {
  it('compares the facts of the mesh each viewer shows, with signed differences of the counts', () => {
    const facts = rowsOf(compareVersions(doc(older), doc(newer)).facts);
    expect(facts.file).toMatchObject({ label: 'Shown file', a: 'mesh.glb', b: 'mesh.glb', changed: false });
    expect(facts.triangles).toEqual({ key: 'triangles', label: 'Triangles', a: '132', b: '192', changed: true, delta: '+60 (+45%)' });
    expect(facts.vertices).toMatchObject({ a: '264', b: '384', changed: true, delta: '+120 (+45%)' });
    expect(facts.materials).toMatchObject({ a: '1', b: '1', changed: false });
    expect(facts.materials!.delta).toBeUndefined();
    expect(facts.bytes).toMatchObject({ label: 'Bytes (shown file)', a: '17,164', b: '21,504', changed: true, delta: '+4,340 (+25%)' });
    expect(facts.extensionsUsed).toMatchObject({ a: 'none', b: 'KHR_texture_transform', changed: true });
    expect(facts.extensionsRequired).toMatchObject({ a: 'none', b: 'none', changed: false });
    expect(facts.hash!.changed).toBe(false);
    expect(facts.files).toMatchObject({ a: '3', b: '3', changed: false });
    // The other way round, the differences change sign.
    expect(rowsOf(compareVersions(doc(newer), doc(older)).facts).triangles!.delta).toBe('-60 (-31%)');
  });

  it('compares the metadata, worlds and retraction included', () => {
    const retracted = { ...doc(older), retracted: { reason: 'wrong wood', retractedAt: '2026-03-01T00:00:00Z' } };
    const meta = rowsOf(compareVersions(retracted, doc(newer)).metadata);
    expect(meta.version).toMatchObject({ a: '1.0.0', b: '1.1.0', changed: true });
    expect(meta.tags).toMatchObject({ a: 'oak', b: 'oak, wood', changed: true });
    expect(meta.license).toMatchObject({ a: 'CC0-1.0', b: 'CC0-1.0', changed: false });
    expect(meta.generator).toMatchObject({ a: 'Not declared', changed: false });
    expect(meta.created).toMatchObject({ a: '2026-01-01T00:00:00Z', b: '2026-02-01T00:00:00Z', changed: true });
    expect(meta.worlds).toMatchObject({ a: 'none', b: 'Reading room', changed: true });
    expect(meta.retracted).toMatchObject({ a: 'Retracted on 2026-03-01T00:00:00Z: wrong wood', b: 'No', changed: true });
    expect(meta.representations!.a).toBe('mesh (mesh · glb), reference (image · jpg), preview (preview, image · png)');
    expect(meta.recordHash!.changed).toBe(true);
  });

  it('says n/a where a side shows no glTF, and counts no share of a zero', () => {
    const cloud = record('chair', '0.9.0', { representations: [rep('cloud', 'ply')] });
    const empty = { ...doc(newer), representations: doc(newer).representations.map((r) => (r.gltf ? { ...r, gltf: { ...r.gltf, textures: 0 } } : r)) };
    const facts = rowsOf(compareVersions(apiVersion(REGISTRY, chair, cloud, []), doc(newer)).facts);
    expect(facts.file).toMatchObject({ a: 'cloud.ply', b: 'mesh.glb', changed: true });
    expect(facts.triangles).toMatchObject({ a: 'n/a (not glTF)', b: '192', changed: true });
    expect(facts.triangles!.delta).toBeUndefined();
    expect(facts.extensionsUsed!.a).toBe('n/a (not glTF)');
    expect(rowsOf(compareVersions(empty, doc(newer)).facts).textures!.delta).toBe('+1');
  });

  it('takes the file the viewer shows: a mesh before an image, the first when none can be shown', () => {
    expect(shownRepresentation(doc(newer))!.id).toBe('mesh');
    const imageFirst = record('chair', '0.8.0', { representations: [rep('photo', 'jpg'), rep('mesh', 'glb')] });
    expect(shownRepresentation(apiVersion(REGISTRY, chair, imageFirst, []))!.id).toBe('mesh');
    const none = record('chair', '0.7.0', { representations: [rep('cloud', 'ply'), rep('other', 'ply')] });
    expect(shownRepresentation(apiVersion(REGISTRY, chair, none, []))!.id).toBe('cloud');
  });
});

describe('comparePair', () => {
  const v = (version: string, over: Partial<ComparableVersion> = {}): ComparableVersion => ({ version, prerelease: false, retracted: false, ...over });
  // Newest first, as an object lists its versions.
  const versions = [v('2.0.0-beta.1', { prerelease: true }), v('1.1.0'), v('1.0.1', { retracted: true }), v('1.0.0')];

  it('compares the two newest releases by default, the older first', () => {
    expect(comparePair(versions, {})).toEqual({ a: '1.0.0', b: '1.1.0', problems: [] });
    expect(comparePair([v('2.0.0-rc.1', { prerelease: true }), v('1.0.0')], {})).toEqual({ a: '1.0.0', b: '2.0.0-rc.1', problems: [] });
    expect(comparePair([v('1.0.0')], {})).toBeUndefined();
  });

  it('takes the versions the query names, and the default for a side it leaves out', () => {
    expect(comparePair(versions, { a: '2.0.0-beta.1', b: '1.0.1' })).toEqual({ a: '2.0.0-beta.1', b: '1.0.1', problems: [] });
    expect(comparePair(versions, { a: '1.0.1' })).toEqual({ a: '1.0.1', b: '1.1.0', problems: [] });
    expect(comparePair(versions, { a: '1.1.0' })).toEqual({ a: '1.1.0', b: '1.0.0', problems: [] });
    expect(comparePair(versions, { b: '1.0.0', a: '' })).toEqual({ a: '1.1.0', b: '1.0.0', problems: [] });
  });

  it('names the parameter of a version the object does not have, and compares the default instead', () => {
    expect(comparePair(versions, { a: '9.9.9', b: '<b>' })).toEqual({
      a: '1.0.0',
      b: '1.1.0',
      problems: ['a: "9.9.9" is not a version of this object', 'b: "<b>" is not a version of this object'],
    });
  });
});
