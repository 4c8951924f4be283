/**
 * What a glTF validation thread runs (see gltf-validation-threads.ts): gltf-validator on the bytes it is handed, or on
 * the file at a path when the check did not keep the bytes (a file too large to hold whole).
 */
import type { GltfCheck } from '@aso-registry/core/format/gltf-rules';
import { validateGltfBytes, validateGltfFile } from './validate-gltf.ts';

/** One file to validate: a copy of its bytes or its path, and its declared format. */
export interface GltfValidationTask {
  path: string;
  format: string;
  bytes?: Uint8Array;
}

/** Validates one file on the thread. */
export default function validate(task: GltfValidationTask): Promise<GltfCheck> {
  return task.bytes ? validateGltfBytes(task.bytes, { format: task.format }) : validateGltfFile(task.path, { format: task.format });
}
