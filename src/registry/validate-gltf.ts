/** gltf-validator in Node: the registry's glTF rule (see core/format/gltf-rules.ts) applied to a file or bytes. */
import { readFile } from 'node:fs/promises';
import { gltfJsonDepthFinding, gltfNodeDepthFinding } from '@aso-registry/core/format/gltf-depth';
import { gltfJson } from '@aso-registry/core/format/gltf-inventory';
import { gltfCheck, refuseExternalResource, type GltfCheck } from '@aso-registry/core/format/gltf-rules';
import * as gltfValidator from 'gltf-validator';
import type { FileDigest } from '../io/hash-file.ts';

/** The formats gltf-validator reads. */
const GLTF_FORMATS: readonly string[] = ['gltf', 'glb'];

/** The media types of glTF assets. */
const GLTF_MEDIA_TYPES: readonly string[] = ['model/gltf+json', 'model/gltf-binary'];

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

/**
 * How many warnings, infos and hints the validator lists per file (their counts are always exact): enough for every
 * note of a real asset, bounded so that a file with a note per vertex cannot fill the memory or the cache.
 */
const MAX_GLTF_MESSAGES = 1000;

/**
 * Validates glTF or GLB bytes: every external URI and validator error (none when the asset passes), the inventory
 * (triangles, extensions, ...) and the validator's warnings and infos.
 */
export async function validateGltfBytes(bytes: Uint8Array, options: ValidateGltfOptions = {}): Promise<GltfCheck> {
  // A CommonJS module: its exports are named under Node and sit on `default` under some bundlers.
  const validator = (gltfValidator as unknown as { default?: typeof gltfValidator }).default ?? gltfValidator;
  const format = options.format === 'gltf' || options.format === 'glb' ? options.format : undefined;
  // gltf-validator recurses over the JSON and the node hierarchy, and its stack overflow escapes every try: refuse first.
  const tooDeep = gltfJsonDepthFinding(bytes);
  if (tooDeep) return { findings: [tooDeep] };
  const json = gltfJson(bytes);
  const hierarchy = gltfNodeDepthFinding(json);
  if (hierarchy) return { findings: [hierarchy] };
  try {
    const report = await validator.validateBytes(bytes, {
      ...(options.uri ? { uri: options.uri } : {}),
      ...(format ? { format } : {}),
      externalResourceFunction: refuseExternalResource,
      writeTimestamp: false,
      maxIssues: MAX_GLTF_MESSAGES,
    });
    return gltfCheck(report, json, options.maxErrors);
  } catch (error) {
    return { findings: [{ message: `gltf-validator cannot read the file: ${String(error instanceof Error ? error.message : error)}` }] };
  }
}

/** Validates a glTF or GLB file on disk. */
export async function validateGltfFile(path: string, options: ValidateGltfOptions = {}): Promise<GltfCheck> {
  return validateGltfBytes(new Uint8Array(await readFile(path)), options);
}

/** Validates a glTF file that was just hashed: the very bytes that were hashed when the hasher kept them, else the file. */
export function validateHashedGltf(path: string, format: string, digest: FileDigest): Promise<GltfCheck> {
  return digest.bytes ? validateGltfBytes(digest.bytes, { format }) : validateGltfFile(path, { format });
}
