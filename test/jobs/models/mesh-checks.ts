/** Geometry checks of built meshes: closed with consistent winding, enclosed volume, bounds. */
import type { MeshData } from '../../../src/jobs/models/mesh-builder.ts';

/** Edges (vertices welded by position) not shared by exactly two triangles running in opposite directions. */
export function openEdges(mesh: MeshData): number {
  const weld = new Map<string, number>();
  const id = (i: number): number => {
    const key = `${mesh.positions[i * 3]},${mesh.positions[i * 3 + 1]},${mesh.positions[i * 3 + 2]}`;
    if (!weld.has(key)) weld.set(key, weld.size);
    return weld.get(key)!;
  };
  const directed = new Map<string, number>();
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const v = [id(mesh.indices[t]!), id(mesh.indices[t + 1]!), id(mesh.indices[t + 2]!)];
    for (let e = 0; e < 3; e++) {
      const key = `${v[e]}>${v[(e + 1) % 3]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  let open = 0;
  for (const [key, count] of directed) {
    const [a, b] = key.split('>');
    if (count !== 1 || directed.get(`${b}>${a}`) !== 1) open++;
  }
  return open;
}

/** The signed volume the triangles enclose: positive when they face outward. */
export function signedVolume(mesh: MeshData): number {
  const p = mesh.positions;
  let sum = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t]! * 3, mesh.indices[t + 1]! * 3, mesh.indices[t + 2]! * 3];
    sum += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return sum / 6;
}

/** The smallest and largest coordinate on each axis. */
export function meshBounds(mesh: MeshData): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, mesh.positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, mesh.positions[i]!);
  }
  return { min, max };
}
