/** `lithophane`: a printable closed panel whose thickness follows inverse luminance. */
import { findModel } from './catalog.ts';
import { fitSize, heightFieldSolid } from './heightfield-solid.ts';
import { numberParameter, type ProgressFn } from './model-run.ts';
import { decodeImage, luminance } from './raster.ts';
import { writeGlb } from './write-glb.ts';

const PARAMS = findModel('lithophane')!.parameters;

/** The GLB of a lithophane of `image`: dark areas thick, light areas thin, transparent areas as white. */
export async function lithophane(image: Uint8Array, progress: ProgressFn): Promise<Uint8Array> {
  const grid = await decodeImage(image, numberParameter(PARAMS, 'gridMax'));
  progress(0.3);
  const min = numberParameter(PARAMS, 'minThickness');
  const max = numberParameter(PARAMS, 'maxThickness');
  const heights = luminance(grid, 1).map((y) => min + (1 - y) * (max - min));
  const { width, height } = fitSize(grid.width, grid.height, numberParameter(PARAMS, 'size'));
  const mesh = heightFieldSolid({ columns: grid.width, rows: grid.height, heights, width, height }, false);
  progress(0.7);
  return writeGlb('lithophane', mesh, { name: 'lithophane', baseColor: [0.93, 0.92, 0.88, 1], roughness: 0.6 });
}
