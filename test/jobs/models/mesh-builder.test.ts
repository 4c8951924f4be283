import { describe, expect, it } from 'vitest';
import { MeshBuilder, normalize } from '../../../src/jobs/models/mesh-builder.ts';

describe('MeshBuilder', () => {
  it('numbers vertices in order and builds typed arrays', () => {
    const mesh = new MeshBuilder(true);
    expect(mesh.vertex([0, 0, 0], [0, 0, 1], [0, 0])).toBe(0);
    expect(mesh.vertex([1, 0, 0], [0, 0, 1], [1, 0])).toBe(1);
    expect(mesh.vertex([0, 1, 0], [0, 0, 1], [0, 1])).toBe(2);
    expect(mesh.vertexCount).toBe(3);
    mesh.triangle(0, 1, 2);
    const built = mesh.build();
    expect(built.positions).toEqual(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    expect(built.normals).toEqual(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
    expect(built.uvs).toEqual(new Float32Array([0, 0, 1, 0, 0, 1]));
    expect(built.indices).toEqual(new Uint32Array([0, 1, 2]));
  });

  it('keeps no texture coordinates when built without them', () => {
    const mesh = new MeshBuilder(false);
    mesh.vertex([0, 0, 0], [0, 0, 1], [0.5, 0.5]);
    expect(mesh.build().uvs).toBeUndefined();
  });

  it('winds a triangle so that its front faces the given direction', () => {
    const mesh = new MeshBuilder(false);
    const [a, b, c] = [mesh.vertex([0, 0, 0], [0, 0, 1]), mesh.vertex([1, 0, 0], [0, 0, 1]), mesh.vertex([0, 1, 0], [0, 0, 1])];
    mesh.triangleFacing(a, b, c, [0, 0, 1]);
    mesh.triangleFacing(a, b, c, [0, 0, -1]);
    expect([...mesh.build().indices]).toEqual([a, b, c, a, c, b]);
  });

  it('splits a quad into two triangles facing the given direction', () => {
    const mesh = new MeshBuilder(false);
    const q = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]].map((p) => mesh.vertex(p as [number, number, number], [0, 0, -1]));
    mesh.quadFacing(q[0]!, q[1]!, q[2]!, q[3]!, [0, 0, -1]);
    expect([...mesh.build().indices]).toEqual([0, 2, 1, 0, 3, 2]);
  });
});

describe('normalize', () => {
  it('scales to unit length and leaves the zero vector alone', () => {
    expect(normalize(3, 0, 4)).toEqual([0.6, 0, 0.8]);
    expect(normalize(0, 0, 0)).toEqual([0, 0, 0]);
  });
});
