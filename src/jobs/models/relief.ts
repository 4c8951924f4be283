/** `relief`: a height field raised from luminance, closed into a solid and textured with the image. */
import { findModel } from './catalog.ts';
import { fitSize, heightFieldSolid } from './heightfield-solid.ts';
import { numberParameter, type ProgressFn } from './model-run.ts';
import { decodeImage, encodeTexture, fitRaster, luminance } from './raster.ts';
import { writeGlb } from './write-glb.ts';

const PARAMS = findModel('relief')!.parameters;

/** The GLB of a textured relief of `image`. */
export async function relief(image: Uint8Array, progress: ProgressFn): Promise<Uint8Array> {
  const source = await decodeImage(image, numberParameter(PARAMS, 'textureMax'));
  progress(0.25);
  const grid = await fitRaster(source, numberParameter(PARAMS, 'gridMax'));
  const lum = luminance(grid, 0);
  const base = numberParameter(PARAMS, 'base');
  const depth = numberParameter(PARAMS, 'depth');
  const heights = lum.map((y) => base + y * depth);
  const { width, height } = fitSize(grid.width, grid.height, numberParameter(PARAMS, 'size'));
  const mesh = heightFieldSolid({ columns: grid.width, rows: grid.height, heights, width, height }, true);
  progress(0.55);
  const texture = await encodeTexture(source, false);
  progress(0.8);
  return writeGlb('relief', mesh, { name: 'relief', texture });
}
