import { describe, expect, it } from 'vitest';
import type { Representation } from '../../src/core/types.ts';
import { parseConfig, serializeConfig } from '../../src/viewer/viewer-config.ts';

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
    });
    expect(text).not.toContain('</script>');
    expect(text).not.toContain('runtimes');
    expect(parseConfig(text)).toEqual({
      name: 'Chair </script><b>',
      representations: [rep],
      registryUrl: 'https://registry.example.org',
      preview: { ...rep, id: 'preview', type: 'image', format: 'png', mediaType: 'image/png' },
    });
  });

  it('names the field that is wrong', () => {
    expect(() => parseConfig('nope')).toThrow(/^viewer config: not JSON/);
    expect(() => parseConfig('{"name":"x","registryUrl":"u"}')).toThrow('viewer config: "representations" must be an array');
    const bad = JSON.stringify({ name: 'x', registryUrl: 'u', representations: [{ ...rep, byteLength: -1 }] });
    expect(() => parseConfig(bad)).toThrow('viewer config /representations/0: "byteLength" must be an integer >= 0, got -1');
    const noHash = JSON.stringify({ name: 'x', registryUrl: 'u', representations: [{ ...rep, hash: undefined }] });
    expect(() => parseConfig(noHash)).toThrow('viewer config /representations/0: "hash" must be a string, got nothing');
  });
});
