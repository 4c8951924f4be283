/** The task function of a model worker thread: runs a model on an image, reports progress on a port, and returns the bytes or the reason it failed. */
import type { MessagePort } from 'node:worker_threads';
import { ModelInputError } from '../models/model-error.ts';
import { runModel } from '../models/run-model.ts';

/** What the pool sends for one run. */
export interface ModelTask {
  model: string;
  image: Uint8Array;
  /** Receives the model's progress, a fraction 0..1. */
  progress: MessagePort;
}

/** A run's result: errors are returned as values so that their code crosses the thread boundary intact. */
export type ModelOutcome = { ok: true; bytes: Uint8Array } | { ok: false; code: string; message: string };

/** Runs one task inside a worker thread. */
export default async function runModelTask(task: ModelTask): Promise<ModelOutcome> {
  try {
    const bytes = await runModel(task.model, task.image, (fraction) => task.progress.postMessage(fraction));
    return { ok: true, bytes };
  } catch (err) {
    const code = err instanceof ModelInputError ? err.code : 'model_failed';
    return { ok: false, code, message: err instanceof Error ? err.message : String(err) };
  } finally {
    task.progress.close();
  }
}
