/** The catalog of the reference service's built-in image-to-3D models (pure: the publish script imports it too). */

/** The identifiers of the built-in models. */
export type ModelId = 'relief' | 'silhouette' | 'card' | 'lithophane' | 'points';

/** One catalog entry: what a model makes and how to record it as a generator. */
export interface ModelInfo {
  id: ModelId;
  name: string;
  description: string;
  /** The image heuristic it is, in a few words: none of these models is learned. */
  method: string;
  /** Bumped whenever the same image would give other bytes. */
  version: string;
  provider: string;
  /** Representation fields of the output, as a manifest declares them. */
  type: 'mesh' | 'point-cloud';
  format: 'glb' | 'ply';
  mediaType: 'model/gltf-binary' | 'application/octet-stream';
  /** The fixed parameters the model runs with (lengths in metres). */
  parameters: Readonly<Record<string, number | string>>;
}

/** The provider name recorded in `generator.provider`. */
const MODEL_PROVIDER = 'aso-reference-jobs';

/** What the catalog is, said once wherever it is listed. */
/** The command that publishes through a hosted generator instead. */
export const PROVIDER_COMMAND = 'npm run submit -- --provider meshy|tripo|fal|replicate';

export const CATALOG_NOTE =
  'The built-in models are image heuristics that run on a CPU without a network: a luminance height field, an extruded outline, a card, a lithophane and a point cloud. ' +
  'None is a learned model and none reconstructs the hidden sides of an object. For a real 3D model of a photographed object use a hosted generator: ' +
  `${PROVIDER_COMMAND} (docs/providers.md).`;

/** The five built-in models, in catalog order. */
export const MODEL_CATALOG: readonly ModelInfo[] = [
  {
    id: 'relief',
    name: 'Relief',
    description: 'A height field raised from the image luminance, textured with the image, closed into a solid.',
    method: 'image heuristic: a luminance height field',
    version: '1.0.0',
    provider: MODEL_PROVIDER,
    type: 'mesh',
    format: 'glb',
    mediaType: 'model/gltf-binary',
    parameters: { gridMax: 256, textureMax: 1024, size: 1, base: 0.02, depth: 0.12 },
  },
  {
    id: 'silhouette',
    name: 'Silhouette',
    description: 'The foreground (alpha, or everything unlike the border colour) traced and extruded into a textured solid.',
    method: 'image heuristic: an extruded outline',
    version: '1.0.0',
    provider: MODEL_PROVIDER,
    type: 'mesh',
    format: 'glb',
    mediaType: 'model/gltf-binary',
    parameters: { gridMax: 256, textureMax: 1024, size: 1, depth: 0.08, colorDistance: 48 },
  },
  {
    id: 'card',
    name: 'Card',
    description: 'A panel with the image aspect ratio and a thickness, the image printed on both faces.',
    method: 'image heuristic: a card',
    version: '1.0.0',
    provider: MODEL_PROVIDER,
    type: 'mesh',
    format: 'glb',
    mediaType: 'model/gltf-binary',
    parameters: { textureMax: 1024, size: 1, thickness: 0.01 },
  },
  {
    id: 'lithophane',
    name: 'Lithophane',
    description: 'A printable closed panel, 100 mm on its longest side, thicker where the image is darker (0.8 to 3 mm).',
    method: 'image heuristic: a lithophane',
    version: '1.0.0',
    provider: MODEL_PROVIDER,
    type: 'mesh',
    format: 'glb',
    mediaType: 'model/gltf-binary',
    parameters: { gridMax: 300, size: 0.1, minThickness: 0.0008, maxThickness: 0.003 },
  },
  {
    id: 'points',
    name: 'Points',
    description: 'A coloured point cloud, one point per sample raised by luminance, as binary little-endian PLY.',
    method: 'image heuristic: a point cloud',
    version: '1.0.0',
    provider: MODEL_PROVIDER,
    type: 'point-cloud',
    format: 'ply',
    mediaType: 'application/octet-stream',
    parameters: { gridMax: 256, size: 1, depth: 0.1 },
  },
];

/** The catalog entry of `id`, or undefined when there is none. */
export function findModel(id: string): ModelInfo | undefined {
  return MODEL_CATALOG.find((m) => m.id === id);
}

/** The `generator` object a manifest's provenance records for an output of `model`. */
export function generatorRecord(model: ModelInfo): { model: string; version: string; provider: string; parameters: Record<string, number | string> } {
  return { model: model.id, version: model.version, provider: model.provider, parameters: { ...model.parameters } };
}
