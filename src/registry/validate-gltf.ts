/** gltf-validator in Node: the registry's glTF rule (see core/gltf-rules.ts) applied to a file or bytes. */
import { readFile } from 'node:fs/promises';
import { gltfFindings, refuseExternalResource, type GltfFinding } from '../core/gltf-rules.ts';
import * as gltfValidator from 'gltf-validator';

/** The formats gltf-validator reads. */
export const GLTF_FORMATS: readonly string[] = ['gltf', 'glb'];

/** The media types of glTF assets. */
export const GLTF_MEDIA_TYPES: readonly string[] = ['model/gltf+json', 'model/gltf-binary'];

/** True when a representation is a glTF asset that must pass gltf-validator. */
export function isGltf(rep: { format: string; mediaType: string }): boolean {
  return GLTF_FORMATS.includes(rep.format) || GLTF_MEDIA_TYPES.includes(rep.mediaType);
}

/** Options of `validateGltfBytes`. */
export interface ValidateGltfOptions {
  /** The name written into the validator's report. */
  uri?: string;
  /** `gltf` or `glb`; anything else lets the validator detect the format. */
  format?: string;
  /** How many validator errors to list before counting the rest. */
  maxErrors?: number;
}

/** Validates glTF or GLB bytes: every external URI and validator error, or an empty list when the asset passes. */
export async function validateGltfBytes(bytes: Uint8Array, options: ValidateGltfOptions = {}): Promise<GltfFinding[]> {
  // A CommonJS module: its exports are named under Node and sit on `default` under some bundlers.
  // Imported statically: the build's content loader runs after Vite's module runner has closed, so it cannot import() lazily.
  const validator = (gltfValidator as unknown as { default?: typeof gltfValidator }).default ?? gltfValidator;
  const format = options.format === 'gltf' || options.format === 'glb' ? options.format : undefined;
  try {
    const report = await validator.validateBytes(bytes, {
      ...(options.uri ? { uri: options.uri } : {}),
      ...(format ? { format } : {}),
      externalResourceFunction: refuseExternalResource,
      writeTimestamp: false,
      maxIssues: 100,
    });
    return gltfFindings(report, options.maxErrors);
  } catch (error) {
    return [{ message: `gltf-validator cannot read the file: ${String(error instanceof Error ? error.message : error)}` }];
  }
}

/** Validates a glTF or GLB file on disk. */
export async function validateGltfFile(path: string, options: ValidateGltfOptions = {}): Promise<GltfFinding[]> {
  return validateGltfBytes(new Uint8Array(await readFile(path)), options);
}
