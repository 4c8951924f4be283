/** A field photograph painted pixel by pixel: sky, sun, clouds, hazy hills, a lone tree and a ploughed field. */
import type { RawImage } from './encode-image.ts';
import { fbm2, latticeValue } from './noise.ts';

type Rgb = [number, number, number];

const mix = (a: Rgb, b: Rgb, t: number): Rgb => {
  const k = Math.min(1, Math.max(0, t));
  return [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, a[2] + (b[2] - a[2]) * k];
};

/** Paints the scene at `width` x `height`. */
export function fieldPhoto(width: number, height: number, seed: number): RawImage {
  const pixels = new Uint8Array(width * height * 3);
  const horizon = 0.6;
  const sun = [0.74, 0.3];
  const tree = { x: 0.24, base: 0.66, trunk: 0.012, crown: 0.075 };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      const aspect = width / height;
      // Sky with a warm glow near the sun and drifting clouds.
      let c = mix([112, 160, 212], [244, 228, 200], v / horizon);
      const ds = Math.hypot((u - sun[0]!) * aspect, v - sun[1]!);
      c = mix(c, [255, 246, 214], Math.exp(-ds * 9) * 0.9);
      if (ds < 0.035) c = [255, 250, 232];
      const cloud = fbm2(u * 6, v * 18, seed, 5);
      c = mix(c, [250, 250, 247], Math.max(0, (cloud - 0.55) * 3.2) * (1 - v / horizon));
      // Two ranges of hills, the far one lost in haze.
      const far = 0.47 - 0.1 * fbm2(u * 3, 0.5, seed + 1, 4);
      const near = 0.56 - 0.07 * fbm2(u * 5, 1.5, seed + 2, 4);
      if (v > far) c = mix([128, 150, 170], [150, 168, 176], (v - far) * 6);
      if (v > near) c = mix([86, 118, 78], [110, 128, 82], fbm2(u * 40, v * 40, seed + 3, 3));
      // The field: furrows that converge towards the horizon.
      if (v > horizon) {
        const depth = 1 / (v - horizon + 0.02);
        const furrow = Math.sin(((u - 0.5) * aspect * depth) * 9 * Math.PI) * 0.5 + 0.5;
        const soil = fbm2(u * 60, v * 30, seed + 4, 3);
        // Furrows fade out towards the horizon, where they would be finer than a pixel.
        const fade = Math.min(1, (v - horizon) * 7);
        c = mix([168, 150, 92], [120, 106, 60], 0.55 * (0.5 + (furrow - 0.5) * fade) + 0.45 * soil);
        c = mix(c, [150, 160, 96], Math.max(0, 0.3 - (v - horizon) * 2));
      }
      // A lone oak on the edge of the field.
      const dx = (u - tree.x) * aspect;
      const crown = Math.hypot(dx, (v - (tree.base - 0.11)) * 1.25) - tree.crown * (0.8 + 0.35 * fbm2(u * 50, v * 50, seed + 5, 3));
      if (crown < 0) c = mix([44, 70, 38], [78, 104, 52], fbm2(u * 90, v * 90, seed + 6, 3) + (v < tree.base - 0.13 ? 0.2 : 0));
      else if (Math.abs(dx) < tree.trunk && v > tree.base - 0.1 && v < tree.base) c = [62, 48, 34];
      // Film grain.
      const g = (latticeValue(x, y, 3, seed) - 0.5) * 10;
      const i = (y * width + x) * 3;
      pixels[i] = Math.round(Math.min(255, Math.max(0, c[0] + g)));
      pixels[i + 1] = Math.round(Math.min(255, Math.max(0, c[1] + g)));
      pixels[i + 2] = Math.round(Math.min(255, Math.max(0, c[2] + g)));
    }
  }
  return { width, height, pixels };
}
