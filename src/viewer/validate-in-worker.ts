/** Validates glTF bytes with gltf-validator in a Web Worker, so the page stays responsive. */
import { formatGltfFindings, type GltfFinding } from '@aso-registry/core/format/gltf-rules';

/** What the page sends to the worker: a copy of the bytes and the name for the report. */
export interface ValidationRequest {
  bytes: Uint8Array;
  uri: string;
}

/** What the worker answers: the findings (empty when the asset passes) and the asset's `extensionsRequired`, or why it could not validate. */
export type ValidationAnswer = { findings: GltfFinding[]; extensionsUsed: string[]; extensionsRequired: string[] } | { error: string };

/** The verdict: `failure` is null when the asset passes, else the text; the extensions as the validator read them. */
export interface GltfValidation {
  failure: string | null;
  extensionsUsed: string[];
  extensionsRequired: string[];
}

/** Runs the validator in a fresh worker. */
export function validateGltf(bytes: Uint8Array, uri: string, signal?: AbortSignal): Promise<GltfValidation> {
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
      if ('error' in answer) resolve({ failure: answer.error, extensionsUsed: [], extensionsRequired: [] });
      else {
        const failure = answer.findings.length ? formatGltfFindings(answer.findings) : null;
        resolve({ failure, extensionsUsed: answer.extensionsUsed, extensionsRequired: answer.extensionsRequired });
      }
    };
    worker.onerror = (event) => {
      done();
      resolve({ failure: `gltf-validator could not run: ${event.message || 'the validation worker failed to start'}`, extensionsUsed: [], extensionsRequired: [] });
    };
    const copy = bytes.slice();
    worker.postMessage({ bytes: copy, uri } satisfies ValidationRequest, [copy.buffer]);
  });
}
