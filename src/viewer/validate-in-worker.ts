/** Validates glTF bytes with gltf-validator in a Web Worker, so the page stays responsive. */
import { formatGltfFindings, type GltfFinding } from '../core/gltf-rules.ts';

/** What the page sends to the worker: a copy of the bytes and the name for the report. */
export interface ValidationRequest {
  bytes: Uint8Array;
  uri: string;
}

/** What the worker answers: the findings (empty when the asset passes), or why it could not validate. */
export type ValidationAnswer = { findings: GltfFinding[] } | { error: string };

/** Runs the validator in a fresh worker; resolves to null when the asset passes, else the failure text. */
export function validateGltf(bytes: Uint8Array, uri: string, signal?: AbortSignal): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./validate-worker.ts', import.meta.url), { type: 'module' });
    const done = (): void => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      done();
      reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<ValidationAnswer>) => {
      done();
      const answer = event.data;
      if ('error' in answer) resolve(answer.error);
      else resolve(answer.findings.length ? formatGltfFindings(answer.findings) : null);
    };
    worker.onerror = (event) => {
      done();
      resolve(`gltf-validator could not run: ${event.message || 'the validation worker failed to start'}`);
    };
    const copy = bytes.slice();
    worker.postMessage({ bytes: copy, uri } satisfies ValidationRequest, [copy.buffer]);
  });
}
