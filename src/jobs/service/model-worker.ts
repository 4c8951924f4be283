/** The body of a worker thread: runs models on the images it is sent and reports progress. */
import { parentPort } from 'node:worker_threads';
import { ModelInputError } from '../models/model-error.ts';
import { runModel } from '../models/run-model.ts';

/** A request from the pool. */
export interface WorkerRequest {
  id: number;
  model: string;
  image: Uint8Array;
}

/** A message back to the pool. */
export type WorkerReply =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'done'; bytes: Uint8Array }
  | { id: number; type: 'error'; code: string; message: string };

const port = parentPort;
if (!port) throw new Error('model-worker.ts runs inside a worker thread');

port.on('message', (request: WorkerRequest) => {
  const reply = (message: WorkerReply): void => port.postMessage(message);
  runModel(request.model, request.image, (fraction) => reply({ id: request.id, type: 'progress', fraction }))
    .then((bytes) => reply({ id: request.id, type: 'done', bytes }))
    .catch((err: unknown) => {
      const code = err instanceof ModelInputError ? err.code : 'model_failed';
      reply({ id: request.id, type: 'error', code, message: err instanceof Error ? err.message : String(err) });
    });
});
