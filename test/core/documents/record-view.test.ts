import { describe, expect, it } from 'vitest';
import { compatibilityReport, noCompatibleText } from '@aso-registry/core/format/compatibility';
import {
  compatibilitySummary,
  formatDimensions,
  generatorLabel,
  inventoryItems,
  licenseLabel,
  NO_FACT,
  publisherView,
  recordFacts,
  representationCompatibility,
} from '@aso-registry/core/documents/record-view';
import { manifest, rep } from '../records.ts';

describe('record view', () => {
  it('lists the inventory as the record page shows it', () => {
    const inv = { triangles: 1234567, vertices: 3, drawCalls: 1, materials: 1, textures: 0, animations: 0, skins: 0, extensionsUsed: ['KHR_a', 'KHR_b'], extensionsRequired: [] };
    expect(inventoryItems(inv).map((i) => `${i.label}: ${i.value}`)).toEqual([
      'Triangles: 1,234,567',
      'Vertices: 3',
      'Draw calls: 1',
      'Materials: 1',
      'Textures: 0',
      'Animations: 0',
      'Skins: 0',
      'Extensions used: KHR_a, KHR_b',
      'Extensions required: none',
    ]);
  });

  it('says No installed runtime when the only mesh requires an unsupported extension', () => {
    const mesh = { id: 'mesh', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary' };
    expect(compatibilitySummary([{ ...mesh, gltf: { extensionsRequired: ['KHR_draco_mesh_compression'] } }])).toMatchObject({
      compatible: true,
      lines: ['browser-gltf can load representation mesh'],
    });
    expect(compatibilitySummary([{ ...mesh, gltf: { extensionsRequired: ['EXT_unknown'] } }])).toMatchObject({
      compatible: false,
      heading: 'No installed runtime',
      label: 'Unsupported',
      report: expect.stringMatching(/^No compatible representation: mesh\/browser-gltf: extension "EXT_unknown" is not supported; expected /),
    });
  });
});

describe('licenseLabel', () => {
  it('is the declared license, else Not declared', () => {
    expect(licenseLabel(manifest('chair', '1.0.0', { license: 'CC-BY-4.0' }))).toBe('CC-BY-4.0');
    expect(licenseLabel(manifest('chair', '1.0.0'))).toBe('Not declared');
  });
});

describe('generatorLabel', () => {
  it('prefers the manifest generator over provenance', () => {
    const m = manifest('chair', '1.0.0', { generator: 'lathe 1.0.0', provenance: { generator: { model: 'relief', version: '2' } } });
    expect(generatorLabel(m)).toBe('lathe 1.0.0');
  });

  it('writes provenance.generator as model, version and provider, each when a string', () => {
    const label = (generator: unknown) => generatorLabel(manifest('chair', '1.0.0', { provenance: { generator } }));
    expect(label({ model: 'relief', version: '1.2.0', provider: 'aso-jobs' })).toBe('relief 1.2.0 (aso-jobs)');
    expect(label({ model: 'relief', version: '1.2.0' })).toBe('relief 1.2.0');
    expect(label({ model: 'relief', provider: 'aso-jobs' })).toBe('relief (aso-jobs)');
    expect(label({ model: 'relief', version: 2, provider: 7 })).toBe('relief');
  });

  it('is Not declared without a generator or a model name', () => {
    const label = (provenance: Record<string, unknown>) => generatorLabel(manifest('chair', '1.0.0', { provenance }));
    expect(label({ source: 'scan' })).toBe('Not declared');
    expect(label({ generator: { version: '1.0.0' } })).toBe('Not declared');
    expect(label({ generator: { model: 42 } })).toBe('Not declared');
  });
});

describe('compatibilitySummary', () => {
  it('lists one line per runtime that can load each representation, in manifest order', () => {
    expect(compatibilitySummary([rep('cloud', 'ply'), rep('mesh', 'glb'), rep('photo', 'jpg'), rep('model', 'gltf')])).toEqual({
      compatible: true,
      heading: 'Runtime compatible',
      lines: ['browser-gltf can load representation mesh', 'browser-image can load representation photo', 'browser-gltf can load representation model'],
    });
  });

  it('is Unsupported with the full report when no runtime can load anything', () => {
    const reps = [rep('cloud', 'ply'), rep('mesh', 'glb', { mediaType: 'model/obj' })];
    expect(compatibilitySummary(reps)).toEqual({
      compatible: false,
      heading: 'No installed runtime',
      state: 'Preview unavailable',
      label: 'Unsupported',
      report: noCompatibleText(reps),
    });
    expect(noCompatibleText(reps)).toContain('mesh/browser-gltf: media type "model/obj" is not supported');
  });
});

describe('recordFacts', () => {
  it('gives the glTF counts and the size in metres', () => {
    const inv = { triangles: 1234, vertices: 5678, drawCalls: 1, materials: 2, textures: 1, animations: 0, skins: 0, extensionsUsed: [], extensionsRequired: [], dimensions: [0.45, 0.9, 0.4512] as [number, number, number] };
    expect(recordFacts(inv).map((f) => `${f.label}: ${f.value}`)).toEqual(['Triangles: 1,234', 'Vertices: 5,678', 'Materials: 2', 'Textures: 1', 'Animations: 0', 'Size: 0.45 × 0.9 × 0.451 m']);
  });

  it('shows a dash for what the representation does not have', () => {
    expect(recordFacts(null).map((f) => f.value)).toEqual(Array(6).fill(NO_FACT));
    const inv = { triangles: 0, vertices: 0, drawCalls: 0, materials: 0, textures: 0, animations: 0, skins: 0, extensionsUsed: [], extensionsRequired: [] };
    expect(recordFacts(inv).find((f) => f.key === 'dimensions')!.value).toBe(NO_FACT);
  });

  it('lists the size in the inventory when there is one', () => {
    const inv = { triangles: 1, vertices: 3, drawCalls: 1, materials: 0, textures: 0, animations: 0, skins: 0, extensionsUsed: [], extensionsRequired: [], dimensions: [12, 3.5, 0.0012] as [number, number, number] };
    expect(inventoryItems(inv).find((i) => i.key === 'dimensions')).toEqual({ key: 'dimensions', label: 'Size', value: `12 × 3.5 × 0.0012 m` });
    expect(formatDimensions([1, 2, 3])).toBe('1 × 2 × 3 m');
  });
});

describe('publisherView', () => {
  it('shows a name as it is', () => {
    expect(publisherView('ASO sample registry')).toEqual({ text: 'ASO sample registry', full: 'ASO sample registry', opaque: false });
    expect(publisherView('acme-studio')).toMatchObject({ opaque: false });
  });

  it('marks an identifier, and shortens a long one', () => {
    expect(publisherView('pub_7Q2M9XK4')).toEqual({ text: 'pub_7Q2M9XK4', full: 'pub_7Q2M9XK4', opaque: true });
    expect(publisherView('3d685032-d082-474a-8a82-1475e09f8131')).toEqual({ text: '3d685032-d08…131', full: '3d685032-d082-474a-8a82-1475e09f8131', opaque: true });
  });
});

describe('representationCompatibility', () => {
  it('writes one short line per representation and keeps the full report', () => {
    const [mesh, cloud] = representationCompatibility([rep('mesh', 'glb'), rep('cloud', 'ply')]);
    expect(mesh).toMatchObject({ id: 'mesh', runtimes: ['browser-gltf'], line: 'browser-gltf can load representation mesh' });
    expect(mesh!.report).toBe(compatibilityReport(rep('mesh', 'glb'), true));
    expect(cloud).toMatchObject({ id: 'cloud', runtimes: [], line: 'No installed runtime can load representation cloud' });
    expect(cloud!.report).toContain('cloud/browser-gltf: type "point-cloud" is not supported; expected mesh');
  });
});
