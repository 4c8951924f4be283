import { describe, expect, it } from 'vitest';
import { compatibleRuntimes } from '@aso-registry/core/format/compatibility';
import { REPRESENTATION_KINDS, representationKind } from '@aso-registry/core/format/representation-kinds';

describe('representation kinds', () => {
  it('describes a file by its extension, as the runtimes accept it', () => {
    expect(representationKind('mesh.glb')).toMatchObject({ format: 'glb', type: 'mesh', mediaType: 'model/gltf-binary' });
    expect(representationKind('scene.GLTF')).toMatchObject({ format: 'gltf', type: 'mesh', mediaType: 'model/gltf+json' });
    expect(representationKind('photo.jpeg')).toMatchObject({ format: 'jpeg', type: 'image', mediaType: 'image/jpeg' });
    expect(representationKind('cloud.ply')).toMatchObject({ format: 'ply', type: 'point-cloud', mediaType: 'application/octet-stream' });
    expect(representationKind('notes.txt')).toBeUndefined();
    expect(representationKind('glb')).toBeUndefined();
  });

  it('gives every mesh and image kind a runtime that loads it, and the point cloud none', () => {
    for (const k of REPRESENTATION_KINDS) {
      const runtimes = compatibleRuntimes(k);
      expect(runtimes.length > 0, k.format).toBe(k.type !== 'point-cloud');
    }
  });
});
