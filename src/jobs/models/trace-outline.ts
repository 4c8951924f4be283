/** Traces the outlines of a mask into polygons with holes (marching squares, d3-contour). */
import { contours } from 'd3-contour';

/** A ring of [x, y] points in pixel units, first point not repeated at the end. */
export type Ring = Array<[number, number]>;

/** An outer ring and the holes inside it. */
export interface Outline {
  outer: Ring;
  holes: Ring[];
}

/** The outlines where `values` (width x height, row by row) crosses 0.5, dropping rings smaller than `minArea` square pixels. */
export function traceOutlines(values: Float32Array, width: number, height: number, minArea: number): Outline[] {
  const [multi] = contours().size([width, height]).thresholds([0.5])(Array.from(values));
  const outlines: Outline[] = [];
  for (const polygon of multi?.coordinates ?? []) {
    const [outer, ...holes] = polygon.map(toRing);
    if (!outer || Math.abs(ringArea(outer)) < minArea) continue;
    outlines.push({ outer, holes: holes.filter((h) => Math.abs(ringArea(h)) >= minArea) });
  }
  return outlines;
}

/** Signed area of a ring (shoelace formula). */
export function ringArea(ring: Ring): number {
  let sum = 0;
  for (let k = 0; k < ring.length; k++) {
    const [x0, y0] = ring[k]!;
    const [x1, y1] = ring[(k + 1) % ring.length]!;
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}

function toRing(points: number[][]): Ring {
  const ring = points.map(([x, y]) => [x!, y!] as [number, number]);
  const first = ring[0], last = ring[ring.length - 1];
  if (ring.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) ring.pop();
  return dropCollinear(ring);
}

/** The ring without points that lie on the straight line between their neighbours. */
function dropCollinear(ring: Ring): Ring {
  if (ring.length < 4) return ring;
  const out: Ring = [];
  for (let k = 0; k < ring.length; k++) {
    const [ax, ay] = ring[(k + ring.length - 1) % ring.length]!;
    const [bx, by] = ring[k]!;
    const [cx, cy] = ring[(k + 1) % ring.length]!;
    if (Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) > 1e-9) out.push([bx, by]);
  }
  return out.length >= 3 ? out : ring;
}
