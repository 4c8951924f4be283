import { describe, expect, it } from 'vitest';
import { compatibilitySummary, inventoryItems } from '../../src/core/record-view.ts';

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
