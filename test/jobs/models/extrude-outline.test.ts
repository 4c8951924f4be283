import { describe, expect, it } from 'vitest';
import { extrudeOutlines } from '../../../src/jobs/models/extrude-outline.ts';
import type { Ring } from '../../../src/jobs/models/trace-outline.ts';
import { meshBounds, openEdges, signedVolume } from './mesh-checks.ts';

const square = (x0: number, y0: number, x1: number, y1: number): Ring => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
const place = { scale: 0.5, cx: 5, cy: 5, width: 10, height: 10 };

describe('extrudeOutlines', () => {
  it('makes a closed solid of the outline area times the depth, whichever way the ring runs', () => {
    for (const outer of [square(1, 1, 9, 5), [...square(1, 1, 9, 5)].reverse()]) {
      const mesh = extrudeOutlines([{ outer, holes: [] }], 0.2, place);
      expect(openEdges(mesh)).toBe(0);
      expect(signedVolume(mesh)).toBeCloseTo(8 * 4 * 0.25 * 0.2, 6);
    }
  });

  it('places pixels in the model: centred, y up, scaled', () => {
    const mesh = extrudeOutlines([{ outer: square(1, 1, 9, 5), holes: [] }], 0.2, place);
    const b = meshBounds(mesh);
    expect(b.min.map((v) => Number(v.toFixed(6)))).toEqual([-2, 0, 0]);
    expect(b.max.map((v) => Number(v.toFixed(6)))).toEqual([2, 2, 0.2]);
  });

  it('cuts the holes through, staying closed, whichever way they run', () => {
    for (const hole of [square(3, 3, 7, 7), [...square(3, 3, 7, 7)].reverse()]) {
      const mesh = extrudeOutlines([{ outer: square(0, 0, 10, 10), holes: [hole] }], 1, place);
      expect(openEdges(mesh)).toBe(0);
      expect(signedVolume(mesh)).toBeCloseTo((100 - 16) * 0.25, 6);
    }
  });

  it('maps the texture by projecting the image along Z', () => {
    const mesh = extrudeOutlines([{ outer: square(0, 0, 10, 5), holes: [] }], 1, place);
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const [x, y] = [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!];
      expect(mesh.uvs![v * 2]).toBeCloseTo((x / place.scale + place.cx) / place.width, 6);
      expect(mesh.uvs![v * 2 + 1]).toBeCloseTo((place.cy - y / place.scale) / place.height, 6);
    }
  });

  it('extrudes several outlines into one mesh', () => {
    const mesh = extrudeOutlines([{ outer: square(0, 0, 2, 2), holes: [] }, { outer: square(5, 5, 9, 9), holes: [] }], 1, place);
    expect(openEdges(mesh)).toBe(0);
    expect(signedVolume(mesh)).toBeCloseTo((4 + 16) * 0.25, 6);
  });
});
