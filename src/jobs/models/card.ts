/** `card`: a panel with the image's aspect ratio and a thickness, the image on both faces. */
import { findModel } from './catalog.ts';
import { fitSize } from './heightfield-solid.ts';
import { MeshBuilder } from './mesh-builder.ts';
import { numberParameter, type ProgressFn } from './model-run.ts';
import { decodeImage, encodeTexture } from './raster.ts';
import { writeGlb } from './write-glb.ts';

const PARAMS = findModel('card')!.parameters;

type Vec3 = [number, number, number];

/** The GLB of a card showing `image` on its front and, readable from behind, on its back. */
export async function card(image: Uint8Array, progress: ProgressFn): Promise<Uint8Array> {
  const source = await decodeImage(image, numberParameter(PARAMS, 'textureMax'));
  progress(0.35);
  const { width: w, height: h } = fitSize(source.width, source.height, numberParameter(PARAMS, 'size'));
  const t = numberParameter(PARAMS, 'thickness');
  const mesh = new MeshBuilder(true);
  const uvOf = (x: number, y: number, mirror = false): [number, number] => [mirror ? 0.5 - x / w : x / w + 0.5, 0.5 - y / h];
  const face = (corners: Vec3[], normal: Vec3, mirror = false): void => {
    const [a, b, c, d] = corners.map((p) => mesh.vertex(p, normal, uvOf(p[0], p[1], mirror))) as [number, number, number, number];
    mesh.quadFacing(a, b, c, d, normal);
  };
  const L = -w / 2, R = w / 2, T = h / 2, B = -h / 2;
  face([[L, T, t], [R, T, t], [R, B, t], [L, B, t]], [0, 0, 1]);
  face([[L, T, 0], [R, T, 0], [R, B, 0], [L, B, 0]], [0, 0, -1], true);
  face([[L, T, 0], [R, T, 0], [R, T, t], [L, T, t]], [0, 1, 0]);
  face([[L, B, 0], [R, B, 0], [R, B, t], [L, B, t]], [0, -1, 0]);
  face([[R, T, 0], [R, B, 0], [R, B, t], [R, T, t]], [1, 0, 0]);
  face([[L, T, 0], [L, B, 0], [L, B, t], [L, T, t]], [-1, 0, 0]);
  const texture = await encodeTexture(source, true);
  progress(0.8);
  return writeGlb('card', mesh.build(), { name: 'card', texture, alphaMode: texture.alpha ? 'MASK' : 'OPAQUE', doubleSided: texture.alpha });
}
