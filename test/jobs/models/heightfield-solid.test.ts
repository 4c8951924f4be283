import { describe, expect, it } from 'vitest';
import { fitSize, heightFieldSolid } from '../../../src/jobs/models/heightfield-solid.ts';
import { meshBounds, openEdges, signedVolume } from './mesh-checks.ts';

describe('heightFieldSolid', () => {
  it('closes a flat field into a box of the right volume, facing outward', () => {
    const mesh = heightFieldSolid({ columns: 3, rows: 2, heights: new Float32Array(6).fill(0.5), width: 2, height: 1 }, false);
    expect(openEdges(mesh)).toBe(0);
    expect(signedVolume(mesh)).toBeCloseTo(2 * 1 * 0.5, 6);
    expect(meshBounds(mesh)).toEqual({ min: [-1, -0.5, 0], max: [1, 0.5, 0.5] });
    expect(mesh.uvs).toBeUndefined();
  });

  it('follows the heights row by row from the top edge, and stays closed', () => {
    // 3 x 3 samples over 2 x 2: a ridge along the top row.
    const heights = new Float32Array([3, 3, 3, 1, 1, 1, 1, 1, 1]);
    const mesh = heightFieldSolid({ columns: 3, rows: 3, heights, width: 2, height: 2 }, true);
    expect(openEdges(mesh)).toBe(0);
    // Volume of the piecewise-linear surface: the top half averages 2, the bottom half 1.
    expect(signedVolume(mesh)).toBeCloseTo(2 * 1 * 2 + 2 * 1 * 1, 5);
    let topLeft = -1;
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      if (mesh.positions[v * 3] === -1 && mesh.positions[v * 3 + 1] === 1 && mesh.positions[v * 3 + 2] === 3) topLeft = v;
    }
    expect(topLeft).toBeGreaterThanOrEqual(0);
    expect([mesh.uvs![topLeft * 2], mesh.uvs![topLeft * 2 + 1]]).toEqual([0, 0]);
  });

  it('tilts the normals of the top surface with the slope', () => {
    const heights = new Float32Array([0, 1, 0, 1]);
    const mesh = heightFieldSolid({ columns: 2, rows: 2, heights, width: 1, height: 1 }, false);
    // The first vertex is the top-left sample; z rises with x, so its normal leans towards -x.
    expect(mesh.normals[0]).toBeLessThan(0);
    expect(mesh.normals[2]).toBeGreaterThan(0);
  });

  it('refuses a field with fewer than 2 x 2 samples', () => {
    expect(() => heightFieldSolid({ columns: 1, rows: 5, heights: new Float32Array(5), width: 1, height: 1 }, false)).toThrow('a height field needs at least 2 x 2 samples, got 1 x 5');
  });
});

describe('fitSize', () => {
  it('makes the longest side measure size, keeping the aspect ratio', () => {
    expect(fitSize(64, 48, 1)).toEqual({ width: 1, height: 0.75 });
    expect(fitSize(30, 60, 0.1)).toEqual({ width: 0.05, height: 0.1 });
  });
});
