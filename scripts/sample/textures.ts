/** Procedural textures drawn pixel by pixel from seeded noise: oak, brass, glaze and woven fabric. */
import { fbm2, latticeValue, noise2 } from './noise.ts';

/** An sRGB image held as raw RGB bytes, row 0 at the top (glTF UV `v = 0`). */
export interface Texture {
  name: string;
  width: number;
  height: number;
  pixels: Uint8Array;
}

type Rgb = readonly [number, number, number];

const clamp01 = (t: number): number => Math.min(1, Math.max(0, t));
const smoothstep = (a: number, b: number, t: number): number => {
  const x = clamp01((t - a) / (b - a));
  return x * x * (3 - 2 * x);
};
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const hex = (h: number): Rgb => [(h >> 16) & 255, (h >> 8) & 255, h & 255];
const scale = (c: Rgb, k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];

/** Fills a square texture from a function of (u, v) in [0, 1) and the pixel coordinates. */
function paint(name: string, size: number, shade: (u: number, v: number, x: number, y: number) => Rgb): Texture {
  const pixels = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const c = shade(x / size, y / size, x, y);
      const i = (y * size + x) * 3;
      pixels[i] = Math.round(Math.min(255, Math.max(0, c[0])));
      pixels[i + 1] = Math.round(Math.min(255, Math.max(0, c[1])));
      pixels[i + 2] = Math.round(Math.min(255, Math.max(0, c[2])));
    }
  }
  return { name, width: size, height: size, pixels };
}

/** Oak: growth rings across `v`, wavy along `u`, with fine pores; tiles in both directions. */
export function oakTexture(seed: number, size = 256, tone = 0): Texture {
  const light = mix(hex(0xd2a56a), hex(0xe2bd86), tone);
  const dark = mix(hex(0x8f5b2c), hex(0xa06c3a), tone);
  return paint('oak', size, (u, v) => {
    const warp = fbm2(u * 2, v * 5, seed, 4, 2, 5);
    const ring = v * 10 + warp * 1.6;
    const f = ring - Math.floor(ring);
    const late = Math.exp(-(((f - 0.8) / 0.09) ** 2)) + 0.35 * smoothstep(0.3, 0.8, f);
    const pores = noise2(u * 2, v * 96, seed + 7, 2, 96);
    const t = clamp01(0.1 + 0.5 * late + 0.3 * (pores - 0.5) + 0.15 * (warp - 0.5));
    return mix(light, dark, t);
  });
}

/** Brushed brass: streaks along `u` and a few patches of patina. */
export function brassTexture(seed: number, size = 256): Texture {
  const dull = hex(0x8a6526);
  const bright = hex(0xe0b95e);
  const patina = hex(0x5f6b46);
  return paint('brass', size, (u, v) => {
    const brushed = noise2(u * 4, v * 160, seed, 4, 160);
    const broad = fbm2(u * 2, v * 2, seed + 3, 3, 2, 2);
    let c = mix(dull, bright, clamp01(0.35 + 0.7 * (brushed - 0.5) + 0.6 * (broad - 0.5) + 0.25));
    const spots = fbm2(u * 5, v * 5, seed + 11, 4, 5, 5);
    c = mix(c, patina, 0.45 * smoothstep(0.66, 0.8, spots));
    return c;
  });
}

/** Ceramic glaze for the vase lathe, whose `v` runs from the foot (0) up the outside, over the lip at 0.77 and down the inside (1). */
export function glazeTexture(seed: number, size = 256): Texture {
  const clay = hex(0xc49a74);
  const teal = hex(0x2b7f86);
  const cobalt = hex(0x1e3f73);
  const cream = hex(0xeee2c4);
  return paint('glaze', size, (u, v, x, y) => {
    const edge = 0.12 + 0.05 * fbm2(u * 8, 0.5, seed, 3, 8, 0);
    if (v < edge) {
      const grit = latticeValue(x, y, 1, seed);
      return scale(clay, 0.9 + 0.15 * grit);
    }
    const flow = fbm2(u * 6, v * 10, seed + 5, 4, 6, 0);
    let c = mix(teal, cobalt, smoothstep(0.2, 0.65, v + 0.08 * (flow - 0.5)));
    const band = Math.abs(v - 0.45 - 0.015 * Math.sin(u * Math.PI * 2 * 3));
    c = mix(c, cream, 1 - smoothstep(0.008, 0.02, band));
    if (v > 0.77) c = scale(c, 0.7);
    c = scale(c, 0.85 + 0.3 * flow);
    if (latticeValue(x, y, 2, seed) > 0.985) c = mix(c, hex(0x3a2a1c), 0.8);
    return c;
  });
}

/** A plain-woven upholstery fabric: alternating 4-pixel threads with a little irregularity. */
export function fabricTexture(seed: number, size = 256): Texture {
  const base = hex(0x7b2f3b);
  const sheen = hex(0xb2596a);
  return paint('fabric', size, (u, v, x, y) => {
    const over = (Math.floor(x / 4) + Math.floor(y / 4)) % 2 === 0;
    const along = over ? (x % 4) / 3 : (y % 4) / 3;
    const thread = Math.sin(along * Math.PI);
    const slub = noise2(u * 32, v * 32, seed, 32, 32);
    return mix(base, sheen, clamp01(0.15 + 0.45 * thread + 0.3 * (slub - 0.5)));
  });
}

/** Bilinear, repeating sample of a texture at (u, v), as sRGB in [0, 1]. */
export function sampleTexture(t: Texture, u: number, v: number): [number, number, number] {
  const fx = (u - Math.floor(u)) * t.width - 0.5;
  const fy = (v - Math.floor(v)) * t.height - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  const at = (x: number, y: number, c: number): number => {
    const xi = ((x % t.width) + t.width) % t.width;
    const yi = ((y % t.height) + t.height) % t.height;
    return t.pixels[(yi * t.width + xi) * 3 + c]!;
  };
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const top = at(x0, y0, c) * (1 - ax) + at(x0 + 1, y0, c) * ax;
    const bottom = at(x0, y0 + 1, c) * (1 - ax) + at(x0 + 1, y0 + 1, c) * ax;
    out[c] = (top * (1 - ay) + bottom * ay) / 255;
  }
  return out;
}
