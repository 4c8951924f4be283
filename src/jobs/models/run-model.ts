/** Runs a built-in model by id. */
import { card } from './card.ts';
import type { ModelId } from './catalog.ts';
import { lithophane } from './lithophane.ts';
import type { ModelRun, ProgressFn } from './model-run.ts';
import { points } from './points.ts';
import { relief } from './relief.ts';
import { silhouette } from './silhouette.ts';

const MODELS: Record<ModelId, ModelRun> = { relief, silhouette, card, lithophane, points };

/** The asset bytes `model` makes of `image`. */
export function runModel(model: string, image: Uint8Array, progress: ProgressFn = () => {}): Promise<Uint8Array> {
  const run = MODELS[model as ModelId];
  if (!run) return Promise.reject(new Error(`unknown model "${model}"; expected one of ${Object.keys(MODELS).join(', ')}`));
  return run(image, progress);
}
