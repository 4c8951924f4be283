/** `silhouette`: the traced foreground extruded into a textured solid. */
import { findModel } from './catalog.ts';
import { extrudeOutlines } from './extrude-outline.ts';
import { foregroundMask, smoothMask } from './foreground-mask.ts';
import { ModelInputError } from './model-error.ts';
import { numberParameter, type ProgressFn } from './model-run.ts';
import { decodeImage, encodeTexture, fitRaster } from './raster.ts';
import { traceOutlines } from './trace-outline.ts';
import { writeGlb } from './write-glb.ts';

const PARAMS = findModel('silhouette')!.parameters;

/** The GLB of the extruded foreground of `image`. */
export async function silhouette(image: Uint8Array, progress: ProgressFn): Promise<Uint8Array> {
  const source = await decodeImage(image, numberParameter(PARAMS, 'textureMax'));
  const grid = await fitRaster(source, numberParameter(PARAMS, 'gridMax'));
  progress(0.25);
  const { width, height } = grid;
  const mask = smoothMask(foregroundMask(grid, numberParameter(PARAMS, 'colorDistance')), width, height);
  const outlines = traceOutlines(mask, width, height, Math.max(4, width * height * 0.0005));
  if (outlines.length === 0) {
    throw new ModelInputError('no_foreground', 'no foreground was found: the image has no transparent cut-out and nothing differs from its border colour');
  }
  progress(0.45);
  const scale = numberParameter(PARAMS, 'size') / Math.max(width, height);
  const mesh = extrudeOutlines(outlines, numberParameter(PARAMS, 'depth'), { scale, cx: width / 2, cy: height / 2, width, height });
  progress(0.65);
  const texture = await encodeTexture(source, false);
  progress(0.85);
  return writeGlb('silhouette', mesh, { name: 'silhouette', texture });
}
