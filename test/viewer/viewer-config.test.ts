import { describe, expect, it } from 'vitest';
import type { Representation } from '@aso-registry/core/format/types';
import { parseConfig, serializeConfig } from '../../src/viewer/viewer-config.ts';

const decoders = { draco: '/decoders/three-0.183.2/draco/', ktx2: '/decoders/three-0.183.2/basis/', meshopt: '/decoders/meshoptimizer-1.3.0/meshopt_decoder.js' };

const rep: Representation = {
  id: 'mesh',
  type: 'mesh',
  format: 'glb',
  mediaType: 'model/gltf-binary',
  url: 'https://registry.example.org/objects/chair/versions/1.0.0/representations/mesh.glb',
  byteLength: 10,
  hash: `sha256-${'A'.repeat(43)}=`,
};

describe('viewer config', () => {
  it('keeps only the representation fields and round-trips', () => {
    const text = serializeConfig({
      name: 'Chair </script><b>',
      representations: [{ ...rep, role: 'representation', runtimes: ['browser-gltf'] } as Representation],
      registryUrl: 'https://registry.example.org',
      preview: { ...rep, id: 'preview', type: 'image', format: 'png', mediaType: 'image/png', role: 'preview' } as Representation,
      decoders,
    });
    expect(text).not.toContain('</script>');
    expect(text).not.toContain('runtimes');
    expect(parseConfig(text)).toEqual({
      name: 'Chair </script><b>',
      representations: [rep],
      registryUrl: 'https://registry.example.org',
      preview: { ...rep, id: 'preview', type: 'image', format: 'png', mediaType: 'image/png' },
      decoders,
    });
  });

  it('keeps the extensions a glTF representation requires, and nothing else of its inventory', () => {
    const gltf = { triangles: 12, vertices: 8, drawCalls: 1, materials: 1, textures: 0, animations: 0, skins: 0, extensionsUsed: ['KHR_x', 'KHR_y'], extensionsRequired: ['KHR_x'] };
    const text = serializeConfig({ name: 'x', registryUrl: 'u', representations: [{ ...rep, gltf }], decoders });
    expect(parseConfig(text).representations).toEqual([{ ...rep, gltf: { extensionsRequired: ['KHR_x'] } }]);
    const bad = JSON.stringify({ name: 'x', registryUrl: 'u', decoders, representations: [{ ...rep, gltf: { extensionsRequired: 'KHR_x' } }] });
    expect(() => parseConfig(bad)).toThrow('viewer config /representations/0: "gltf.extensionsRequired" must be an array of strings, got "KHR_x"');
  });

  it('requires the decoder locations, so that model-viewer never falls back to another origin', () => {
    expect(() => parseConfig(JSON.stringify({ name: 'x', registryUrl: 'u', representations: [] }))).toThrow('viewer config: "decoders" must be an object, got nothing');
    const partial = JSON.stringify({ name: 'x', registryUrl: 'u', representations: [], decoders: { draco: 'd/', ktx2: 'k/' } });
    expect(() => parseConfig(partial)).toThrow('viewer config /decoders: "meshopt" must be a string, got nothing');
  });

  it('names the field that is wrong', () => {
    expect(() => parseConfig('nope')).toThrow(/^viewer config: not JSON/);
    expect(() => parseConfig('{"name":"x","registryUrl":"u"}')).toThrow('viewer config: "representations" must be an array');
    const bad = JSON.stringify({ name: 'x', registryUrl: 'u', decoders, representations: [{ ...rep, byteLength: -1 }] });
    expect(() => parseConfig(bad)).toThrow('viewer config /representations/0: "byteLength" must be an integer >= 0, got -1');
    const noHash = JSON.stringify({ name: 'x', registryUrl: 'u', decoders, representations: [{ ...rep, hash: undefined }] });
    expect(() => parseConfig(noHash)).toThrow('viewer config /representations/0: "hash" must be a string, got nothing');
  });
});
