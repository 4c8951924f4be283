/** Meshes built in code: boxes, lathes and tori with normals and UVs, grouped by material. */
import type { Texture } from './textures.ts';

export type Vec3 = [number, number, number];

/** The indices of a `Vec3`. */
const AXES = [0, 1, 2] as const;

/** A metal-rough material; `baseColor` is linear RGBA, the texture (if any) is sRGB. */
export interface Material {
  name: string;
  baseColor: [number, number, number, number];
  texture?: Texture;
  metallic: number;
  roughness: number;
  emissive?: Vec3;
  /** Alpha-blended (glass). */
  blend?: boolean;
  doubleSided?: boolean;
}

/** The triangles of one material. */
export interface MeshPart {
  material: Material;
  positions: number[];
  normals: number[];
  uvs: number[];
  indices: number[];
}

/** A named mesh: one part per material. */
export interface Model {
  name: string;
  parts: MeshPart[];
}

export function createModel(name: string): Model {
  return { name, parts: [] };
}

/** The part of `model` that holds triangles of `material`, created on first use. */
function partFor(model: Model, material: Material): MeshPart {
  let part = model.parts.find((p) => p.material === material);
  if (!part) {
    part = { material, positions: [], normals: [], uvs: [], indices: [] };
    model.parts.push(part);
  }
  return part;
}

function addVertex(part: MeshPart, p: Vec3, n: Vec3, uv: [number, number]): number {
  const len = Math.hypot(n[0], n[1], n[2]) || 1;
  part.positions.push(p[0], p[1], p[2]);
  part.normals.push(n[0] / len, n[1] / len, n[2] / len);
  part.uvs.push(uv[0], uv[1]);
  return part.positions.length / 3 - 1;
}

/** Adds a triangle, wound counter-clockwise as seen from the side its vertex normals face; skips degenerate ones. */
function addTriangle(part: MeshPart, a: number, b: number, c: number): void {
  const P = part.positions;
  const N = part.normals;
  const e1 = [P[b * 3]! - P[a * 3]!, P[b * 3 + 1]! - P[a * 3 + 1]!, P[b * 3 + 2]! - P[a * 3 + 2]!];
  const e2 = [P[c * 3]! - P[a * 3]!, P[c * 3 + 1]! - P[a * 3 + 1]!, P[c * 3 + 2]! - P[a * 3 + 2]!];
  const g = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  if (Math.hypot(g[0]!, g[1]!, g[2]!) < 1e-12) return;
  let facing = 0;
  for (const v of [a, b, c]) facing += g[0]! * N[v * 3]! + g[1]! * N[v * 3 + 1]! + g[2]! * N[v * 3 + 2]!;
  if (facing < 0) part.indices.push(a, c, b);
  else part.indices.push(a, b, c);
}

/** An axis-aligned box; UVs are metric (`uvPerMeter`), with `u` along each face's longer side. */
export function addBox(model: Model, material: Material, min: Vec3, max: Vec3, uvPerMeter = 2): void {
  const part = partFor(model, material);
  for (const k of AXES) {
    for (const side of [-1, 1]) {
      const a = AXES[(k + 1) % 3]!;
      const b = AXES[(k + 2) % 3]!;
      const long = max[a] - min[a] >= max[b] - min[b] ? a : b;
      const short = long === a ? b : a;
      const n: Vec3 = [0, 0, 0];
      n[k] = side;
      const ids = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ].map(([i, j]) => {
        const p: Vec3 = [0, 0, 0];
        p[k] = side > 0 ? max[k] : min[k];
        p[a] = i ? max[a] : min[a];
        p[b] = j ? max[b] : min[b];
        return addVertex(part, p, n, [p[long] * uvPerMeter, p[short] * uvPerMeter]);
      });
      addTriangle(part, ids[0]!, ids[1]!, ids[2]!);
      addTriangle(part, ids[0]!, ids[2]!, ids[3]!);
    }
  }
}

/** Options of `addLathe`. */
export interface LatheOptions {
  segments: number;
  /** Profile corners sharper than this keep split normals. */
  creaseDegrees?: number;
  /** Range of `v` along the profile (by arc length). */
  v?: [number, number];
  /** How many times `u` wraps around. */
  uRepeat?: number;
}

/**
 * Revolves a profile of `[radius, y]` points around the Y axis. Keep the solid on the right of the
 * direction of travel (e.g. out along the bottom, then up the outside) so the normals face outwards.
 */
export function addLathe(model: Model, material: Material, profile: Array<[number, number]>, options: LatheOptions): void {
  const part = partFor(model, material);
  const { segments, creaseDegrees = 40, v: [v0, v1] = [0, 1], uRepeat = 1 } = options;
  const segNormals: Array<[number, number]> = [];
  const arc = [0];
  for (let i = 0; i + 1 < profile.length; i++) {
    const [r0, y0] = profile[i]!;
    const [r1, y1] = profile[i + 1]!;
    const len = Math.hypot(r1 - r0, y1 - y0);
    if (len === 0) throw new Error(`lathe profile of ${model.name}: points ${i} and ${i + 1} are equal`);
    segNormals.push([(y1 - y0) / len, -(r1 - r0) / len]);
    arc.push(arc[i]! + len);
  }
  const total = arc[arc.length - 1]!;
  const ring = (i: number, n: [number, number]): { ids: number[] } => {
    const [r, y] = profile[i]!;
    const v = v0 + ((v1 - v0) * arc[i]!) / total;
    const ids: number[] = [];
    for (let j = 0; j <= segments; j++) {
      const t = (2 * Math.PI * j) / segments;
      const s = Math.sin(t);
      const c = Math.cos(t);
      ids.push(addVertex(part, [r * s, y, r * c], [n[0] * s, n[1], n[0] * c], [(uRepeat * j) / segments, v]));
    }
    return { ids };
  };
  const cosCrease = Math.cos((creaseDegrees * Math.PI) / 180);
  let start = ring(0, segNormals[0]!);
  for (let i = 0; i < segNormals.length; i++) {
    const here = segNormals[i]!;
    const next = segNormals[i + 1];
    const smooth = next && here[0] * next[0] + here[1] * next[1] >= cosCrease;
    const end = ring(i + 1, smooth ? [here[0] + next[0], here[1] + next[1]] : here);
    for (let j = 0; j < segments; j++) {
      const [a, b, c, d] = [start.ids[j]!, start.ids[j + 1]!, end.ids[j + 1]!, end.ids[j]!];
      // On the axis one triangle of the quad has no area; addTriangle drops it.
      addTriangle(part, a, b, c);
      addTriangle(part, a, c, d);
    }
    start = smooth || !next ? end : ring(i + 1, next);
  }
}

/** A torus whose ring lies in the XY plane around `center`. */
export function addTorus(
  model: Model,
  material: Material,
  center: Vec3,
  major: number,
  minor: number,
  segments: number,
  sides: number,
): void {
  const part = partFor(model, material);
  const rows: number[][] = [];
  for (let i = 0; i <= segments; i++) {
    const phi = (2 * Math.PI * i) / segments;
    const d: Vec3 = [Math.cos(phi), Math.sin(phi), 0];
    const row: number[] = [];
    for (let j = 0; j <= sides; j++) {
      const psi = (2 * Math.PI * j) / sides;
      const n: Vec3 = [Math.cos(psi) * d[0], Math.cos(psi) * d[1], Math.sin(psi)];
      const p: Vec3 = [center[0] + major * d[0] + minor * n[0], center[1] + major * d[1] + minor * n[1], center[2] + minor * n[2]];
      row.push(addVertex(part, p, n, [(4 * i) / segments, j / sides]));
    }
    rows.push(row);
  }
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < sides; j++) {
      const [a, b, c, d] = [rows[i]![j]!, rows[i + 1]![j]!, rows[i + 1]![j + 1]!, rows[i]![j + 1]!];
      addTriangle(part, a, b, c);
      addTriangle(part, a, c, d);
    }
  }
}

/** The axis-aligned bounds of every vertex of a model. */
export function modelBounds(model: Model): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const part of model.parts) {
    for (let i = 0; i < part.positions.length; i++) {
      const k = AXES[i % 3]!;
      min[k] = Math.min(min[k], part.positions[i]!);
      max[k] = Math.max(max[k], part.positions[i]!);
    }
  }
  return { min, max };
}
