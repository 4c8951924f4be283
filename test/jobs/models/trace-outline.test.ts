import { describe, expect, it } from 'vitest';
import { ringArea, traceOutlines } from '../../../src/jobs/models/trace-outline.ts';

/** A width x height mask with 1 where `inside(x, y)`. */
function mask(width: number, height: number, inside: (x: number, y: number) => boolean): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = inside(x, y) ? 1 : 0;
  return out;
}

describe('traceOutlines', () => {
  it('traces a filled square as one ring without a hole, its corners only', () => {
    const outlines = traceOutlines(mask(10, 10, (x, y) => x >= 2 && x < 8 && y >= 2 && y < 8), 10, 10, 1);
    expect(outlines).toHaveLength(1);
    expect(outlines[0]!.holes).toEqual([]);
    // The 6 x 6 pixel block, cut at 0.5 between pixel centres: a square with bevelled corners.
    expect(Math.abs(ringArea(outlines[0]!.outer))).toBeCloseTo(36 - 4 * 0.125, 6);
    expect(outlines[0]!.outer.length).toBe(8);
    const [first, last] = [outlines[0]!.outer[0]!, outlines[0]!.outer.at(-1)!];
    expect(first).not.toEqual(last);
  });

  it('keeps a hole inside a ring, and each separate shape', () => {
    const ring = mask(12, 12, (x, y) => x >= 1 && x < 11 && y >= 1 && y < 11 && !(x >= 4 && x < 8 && y >= 4 && y < 8));
    const [outline] = traceOutlines(ring, 12, 12, 1);
    expect(outline!.holes).toHaveLength(1);
    expect(Math.sign(ringArea(outline!.holes[0]!))).toBe(-Math.sign(ringArea(outline!.outer)));
    const two = traceOutlines(mask(12, 6, (x, y) => y >= 1 && y < 5 && (x < 4 || x >= 8)), 12, 6, 1);
    expect(two).toHaveLength(2);
  });

  it('drops shapes and holes smaller than the minimum area', () => {
    const specks = mask(20, 20, (x, y) => (x >= 2 && x < 14 && y >= 2 && y < 14 && !(x === 7 && y === 7)) || (x === 17 && y === 17));
    const outlines = traceOutlines(specks, 20, 20, 2);
    expect(outlines).toHaveLength(1);
    expect(outlines[0]!.holes).toEqual([]);
    expect(traceOutlines(specks, 20, 20, 0.1)).toHaveLength(2);
  });

  it('finds nothing in an empty mask', () => {
    expect(traceOutlines(new Float32Array(16), 4, 4, 1)).toEqual([]);
  });
});

describe('ringArea', () => {
  it('is signed by the direction of the ring', () => {
    const square: Array<[number, number]> = [[0, 0], [2, 0], [2, 3], [0, 3]];
    expect(ringArea(square)).toBe(6);
    expect(ringArea([...square].reverse())).toBe(-6);
    expect(ringArea([[0, 0], [1, 1]])).toBe(0);
  });
});
