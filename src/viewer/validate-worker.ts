/** Web Worker: runs gltf-validator off the main thread and answers with the registry's glTF findings. */
import { validateBytes } from 'gltf-validator';
import { gltfFindings, refuseExternalResource } from '@aso-registry/core/format/gltf-rules';
import type { ValidationAnswer, ValidationRequest } from './validate-in-worker.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ValidationRequest>) => void) | null;
  postMessage(message: ValidationAnswer): void;
};

scope.onmessage = (event) => {
  const { bytes, uri } = event.data;
  validateBytes(bytes, { uri, externalResourceFunction: refuseExternalResource, writeTimestamp: false, maxIssues: 100 }).then(
    (report) =>
      scope.postMessage({ findings: gltfFindings(report), extensionsUsed: report.info?.extensionsUsed ?? [], extensionsRequired: report.info?.extensionsRequired ?? [] }),
    (error: unknown) => scope.postMessage({ error: `gltf-validator cannot read the file: ${error instanceof Error ? error.message : String(error)}` }),
  );
};
