/**
 * A small software rasteriser for reference pictures and previews of a `Model`: perspective camera,
 * z-buffer, perspective-correct UVs, textured metal-rough shading, alpha-blended glass and a soft
 * contact shadow. Deterministic: plain arithmetic over the model, no GPU.
 */
import { modelBounds, type Model, type MeshPart, type Vec3 } from './geometry.ts';
import type { RawImage } from './encode-image.ts';
import { sampleTexture } from './textures.ts';

/** Where the camera is and what it looks at. */
export interface Camera {
  eye: Vec3;
  target: Vec3;
  fovDegrees: number;
}

/** Options of `renderModel`. */
export interface RenderOptions {
  width: number;
  height: number;
  camera: Camera;
  /** The backdrop in sRGB 0-255, by pixel. */
  background: (x: number, y: number, width: number, height: number) => Vec3;
  /** Strength of the contact shadow, 0-1. */
  shadow?: number;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const toLinear = (c: number): number => (c / 255) ** 2.2;
const toSrgb = (c: number): number => Math.round(255 * Math.min(1, Math.max(0, c)) ** (1 / 2.2));

/** A camera that frames the whole model from an azimuth and elevation (degrees). */
export function frameCamera(model: Model, azimuth: number, elevation: number, aspect: number, fovDegrees = 30, margin = 1.12): Camera {
  const { min, max } = modelBounds(model);
  const target: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  const fovY = (fovDegrees * Math.PI) / 180;
  const fovX = 2 * Math.atan(Math.tan(fovY / 2) * aspect);
  const distance = (radius / Math.sin(Math.min(fovX, fovY) / 2)) * margin;
  const az = (azimuth * Math.PI) / 180;
  const el = (elevation * Math.PI) / 180;
  const dir: Vec3 = [Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)];
  return { eye: [target[0] + dir[0] * distance, target[1] + dir[1] * distance, target[2] + dir[2] * distance], target, fovDegrees };
}

/** Renders the model over a backdrop; the result is raw sRGB pixels. */
export function renderModel(model: Model, options: RenderOptions): RawImage {
  const { width: W, height: H, camera } = options;
  const f = norm(sub(camera.target, camera.eye));
  const r = norm(cross(f, [0, 1, 0]));
  const u = cross(r, f);
  const focal = H / 2 / Math.tan((camera.fovDegrees * Math.PI) / 360);
  const key = norm([-0.55 * r[0] + 0.9 * u[0] - 0.5 * f[0], -0.55 * r[1] + 0.9 * u[1] - 0.5 * f[1], -0.55 * r[2] + 0.9 * u[2] - 0.5 * f[2]]);
  const fill = norm([0.8 * r[0] + 0.2 * u[0] - 0.3 * f[0], 0.8 * r[1] + 0.2 * u[1] - 0.3 * f[1], 0.8 * r[2] + 0.2 * u[2] - 0.3 * f[2]]);

  const color = new Float32Array(W * H * 3);
  const depth = new Float32Array(W * H).fill(Infinity);
  paintBackdrop(model, options, color, { f, r, u, focal });

  const project = (p: Vec3): [number, number, number] => {
    const d = sub(p, camera.eye);
    const z = dot(d, f);
    return [W / 2 + (dot(d, r) / z) * focal, H / 2 - (dot(d, u) / z) * focal, z];
  };

  const drawPart = (part: MeshPart, triangles: number[]): void => {
    const m = part.material;
    const P = part.positions;
    const N = part.normals;
    const T = part.uvs;
    const base: Vec3 = [m.baseColor[0], m.baseColor[1], m.baseColor[2]];
    const alpha = m.blend ? m.baseColor[3] : 1;
    for (const t of triangles) {
      const ids = [part.indices[t * 3]!, part.indices[t * 3 + 1]!, part.indices[t * 3 + 2]!];
      const world = ids.map((i) => [P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!] as Vec3);
      const g = cross(sub(world[1]!, world[0]!), sub(world[2]!, world[0]!));
      if (!m.doubleSided && dot(g, sub(camera.eye, world[0]!)) <= 0) continue;
      const s = world.map(project);
      if (s.some((p) => p[2] <= 1e-4)) continue;
      const [s0, s1, s2] = s as [[number, number, number], [number, number, number], [number, number, number]];
      const area = (s1[0] - s0[0]) * (s2[1] - s0[1]) - (s1[1] - s0[1]) * (s2[0] - s0[0]);
      if (Math.abs(area) < 1e-9) continue;
      const x0 = Math.max(0, Math.floor(Math.min(s0[0], s1[0], s2[0])));
      const x1 = Math.min(W - 1, Math.ceil(Math.max(s0[0], s1[0], s2[0])));
      const y0 = Math.max(0, Math.floor(Math.min(s0[1], s1[1], s2[1])));
      const y1 = Math.min(H - 1, Math.ceil(Math.max(s0[1], s1[1], s2[1])));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5;
          const py = y + 0.5;
          const w0 = ((s1[0] - px) * (s2[1] - py) - (s1[1] - py) * (s2[0] - px)) / area;
          const w1 = ((s2[0] - px) * (s0[1] - py) - (s2[1] - py) * (s0[0] - px)) / area;
          const w2 = 1 - w0 - w1;
          if (w0 < 0 || w1 < 0 || w2 < 0) continue;
          const q0 = w0 / s0[2];
          const q1 = w1 / s1[2];
          const q2 = w2 / s2[2];
          const z = 1 / (q0 + q1 + q2);
          const pi = y * W + x;
          if (z >= depth[pi]!) continue;
          const lerp = (arr: number[], k: number, n: number): number =>
            (q0 * arr[ids[0]! * n + k]! + q1 * arr[ids[1]! * n + k]! + q2 * arr[ids[2]! * n + k]!) * z;
          let n = norm([lerp(N, 0, 3), lerp(N, 1, 3), lerp(N, 2, 3)]);
          const pos: Vec3 = [lerp(P, 0, 3), lerp(P, 1, 3), lerp(P, 2, 3)];
          const view = norm(sub(camera.eye, pos));
          if (dot(n, view) < 0) n = [-n[0], -n[1], -n[2]];
          let albedo = base;
          if (m.texture) {
            const tex = sampleTexture(m.texture, lerp(T, 0, 2), lerp(T, 1, 2));
            albedo = [base[0] * tex[0] ** 2.2, base[1] * tex[1] ** 2.2, base[2] * tex[2] ** 2.2];
          }
          const c = shade(albedo, m.metallic, m.roughness, n, view, key, fill);
          if (m.emissive) for (let k = 0; k < 3; k++) c[k]! += m.emissive[k]!;
          if (alpha >= 1) {
            depth[pi] = z;
            color.set(c, pi * 3);
          } else {
            const a = Math.min(1, alpha + (1 - alpha) * 0.6 * (1 - Math.abs(dot(n, view))) ** 3);
            for (let k = 0; k < 3; k++) color[pi * 3 + k] = c[k]! * a + color[pi * 3 + k]! * (1 - a);
          }
        }
      }
    }
  };

  const opaque = model.parts.filter((p) => !p.material.blend);
  const clear = model.parts.filter((p) => p.material.blend);
  for (const part of opaque) drawPart(part, [...Array(part.indices.length / 3).keys()]);
  for (const part of clear) {
    // Back to front, so the far side of the glass shows through the near side.
    const far = (t: number): number =>
      Math.max(...[0, 1, 2].map((k) => {
        const i = part.indices[t * 3 + k]!;
        return dot(sub([part.positions[i * 3]!, part.positions[i * 3 + 1]!, part.positions[i * 3 + 2]!], camera.eye), f);
      }));
    const order = [...Array(part.indices.length / 3).keys()].sort((a, b) => far(b) - far(a) || a - b);
    drawPart(part, order);
  }

  const pixels = new Uint8Array(W * H * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = toSrgb(color[i]!);
  return { width: W, height: H, pixels };
}

/** Lambert key and fill light, a sky/ground ambient, Blinn-Phong highlights and a fake environment for metals. */
function shade(albedo: Vec3, metallic: number, roughness: number, n: Vec3, view: Vec3, key: Vec3, fill: Vec3): Vec3 {
  const diffuse = albedo.map((a) => a * (1 - 0.85 * metallic)) as Vec3;
  const specColor = albedo.map((a) => 0.04 + (a - 0.04) * metallic) as Vec3;
  const ambient = 0.22 + 0.12 * n[1];
  const kd = Math.max(0, dot(n, key));
  const fd = Math.max(0, dot(n, fill));
  const h = norm([key[0] + view[0], key[1] + view[1], key[2] + view[2]]);
  const shininess = Math.min(256, Math.max(4, 2 / Math.max(0.05, roughness) ** 4 - 2));
  const spec = kd > 0 ? ((shininess + 8) / (8 * Math.PI)) * Math.max(0, dot(n, h)) ** shininess * kd : 0;
  const d = dot(n, view);
  const reflectY = 2 * d * n[1] - view[1];
  const env = (0.25 + 0.55 * (0.5 + 0.5 * reflectY)) * metallic * (1 - 0.6 * roughness);
  return [0, 1, 2].map((k) => diffuse[k]! * (ambient + 0.95 * kd + 0.3 * fd) + specColor[k]! * (spec * 0.9 + env)) as Vec3;
}

/** Fills the colour buffer with the backdrop and darkens the floor under the model. */
function paintBackdrop(
  model: Model,
  options: RenderOptions,
  color: Float32Array,
  view: { f: Vec3; r: Vec3; u: Vec3; focal: number },
): void {
  const { width: W, height: H, camera } = options;
  const { min, max } = modelBounds(model);
  const cx = (min[0] + max[0]) / 2;
  const cz = (min[2] + max[2]) / 2;
  const reach = Math.max(max[0] - min[0], max[2] - min[2]) / 2 || 0.1;
  const strength = options.shadow ?? 0.45;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const bg = options.background(x, y, W, H);
      let k = 1;
      const a = (x + 0.5 - W / 2) / view.focal;
      const b = -(y + 0.5 - H / 2) / view.focal;
      const dir: Vec3 = [view.f[0] + a * view.r[0] + b * view.u[0], view.f[1] + a * view.r[1] + b * view.u[1], view.f[2] + a * view.r[2] + b * view.u[2]];
      if (dir[1] < 0) {
        const t = (min[1] - camera.eye[1]) / dir[1];
        const dx = camera.eye[0] + t * dir[0] - cx;
        const dz = camera.eye[2] + t * dir[2] - cz;
        k = 1 - strength * Math.exp(-2.2 * ((dx * dx + dz * dz) / (reach * reach)));
      }
      const i = (y * W + x) * 3;
      color[i] = toLinear(bg[0]) * k;
      color[i + 1] = toLinear(bg[1]) * k;
      color[i + 2] = toLinear(bg[2]) * k;
    }
  }
}
