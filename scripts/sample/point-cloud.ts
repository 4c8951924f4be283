/** A granite boulder as a coloured point cloud with normals, written as binary little-endian PLY. */
import type { Vec3 } from './geometry.ts';
import { fbm3, latticeValue } from './noise.ts';

/** Points with unit normals and sRGB colours. */
export interface PointCloud {
  positions: Float32Array;
  normals: Float32Array;
  colors: Uint8Array;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const SCALE: Vec3 = [0.62, 0.4, 0.5];

const norm = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** The boulder surface in the direction `dir` (a unit vector): a lumpy, squashed sphere. */
function surface(dir: Vec3, seed: number): Vec3 {
  const lump = 0.74 + 0.5 * fbm3(dir[0] * 1.7 + 10, dir[1] * 1.7 + 10, dir[2] * 1.7 + 10, seed, 4);
  return [dir[0] * lump * SCALE[0], dir[1] * lump * SCALE[1], dir[2] * lump * SCALE[2]];
}

/** Samples `count` points evenly over the boulder (a Fibonacci sphere), flattened where it rests on the ground. */
export function graniteBoulder(count: number, seed: number): PointCloud {
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const colors = new Uint8Array(count * 3);
  const floor = -0.24;
  const eps = 1e-3;
  for (let i = 0; i < count; i++) {
    const y = 1 - (2 * (i + 0.5)) / count;
    const ring = Math.sqrt(1 - y * y);
    const dir: Vec3 = [Math.cos(GOLDEN_ANGLE * i) * ring, y, Math.sin(GOLDEN_ANGLE * i) * ring];
    const p = surface(dir, seed);
    const t1 = norm(cross(dir, Math.abs(dir[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0]));
    const t2 = cross(dir, t1);
    const along = (t: Vec3, s: number): Vec3 => surface(norm([dir[0] + s * t[0], dir[1] + s * t[1], dir[2] + s * t[2]]), seed);
    const du = along(t1, eps).map((v, k) => v - along(t1, -eps)[k]!) as Vec3;
    const dv = along(t2, eps).map((v, k) => v - along(t2, -eps)[k]!) as Vec3;
    let n = norm(cross(du, dv));
    if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] < 0) n = [-n[0], -n[1], -n[2]];
    if (p[1] < floor) {
      p[1] = floor;
      n = [0, -1, 0];
    }
    positions.set([p[0], p[1] - floor, p[2]], i * 3);
    normals.set(n, i * 3);
    colors.set(graniteColor(i, p, seed), i * 3);
  }
  return { positions, normals, colors };
}

/** Grey groundmass with black mica, pink feldspar and white quartz grains; darker near the ground. */
function graniteColor(i: number, p: Vec3, seed: number): Vec3 {
  const grain = latticeValue(i, 0, 0, seed);
  const tone = fbm3(p[0] * 6, p[1] * 6, p[2] * 6, seed + 9, 3);
  let c: Vec3 = [128 + 50 * tone, 126 + 48 * tone, 122 + 46 * tone];
  if (grain < 0.09) c = [38, 36, 40];
  else if (grain < 0.2) c = [196, 150, 138];
  else if (grain < 0.32) c = [226, 224, 216];
  const dusk = Math.min(1, Math.max(0.55, (p[1] + 0.3) / 0.35));
  return [Math.round(c[0] * dusk), Math.round(c[1] * dusk), Math.round(c[2] * dusk)];
}

/** The cloud as a binary little-endian PLY: float x y z nx ny nz, uchar red green blue. */
export function encodePly(cloud: PointCloud, comment: string): Uint8Array {
  const count = cloud.positions.length / 3;
  const header =
    [
      'ply',
      'format binary_little_endian 1.0',
      `comment ${comment}`,
      `element vertex ${count}`,
      'property float x',
      'property float y',
      'property float z',
      'property float nx',
      'property float ny',
      'property float nz',
      'property uchar red',
      'property uchar green',
      'property uchar blue',
      'end_header',
    ].join('\n') + '\n';
  const head = new TextEncoder().encode(header);
  const stride = 27;
  const out = new Uint8Array(head.length + count * stride);
  out.set(head);
  const view = new DataView(out.buffer);
  for (let i = 0; i < count; i++) {
    const o = head.length + i * stride;
    for (let k = 0; k < 3; k++) {
      view.setFloat32(o + k * 4, cloud.positions[i * 3 + k]!, true);
      view.setFloat32(o + 12 + k * 4, cloud.normals[i * 3 + k]!, true);
      view.setUint8(o + 24 + k, cloud.colors[i * 3 + k]!);
    }
  }
  return out;
}
