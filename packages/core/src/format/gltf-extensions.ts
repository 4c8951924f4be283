/**
 * The glTF extensions the `browser-gltf` runtime draws: three.js's GLTFLoader inside `<model-viewer>`, with the Draco,
 * meshopt and Basis/KTX2 decoders served by the site itself. An extension is listed only when a browser test loads an
 * asset that requires it and sees it drawn (test/browser/gltf-features.test.ts goes through this list).
 */
export const BROWSER_GLTF_EXTENSIONS: readonly string[] = [
  'EXT_mesh_gpu_instancing',
  'EXT_meshopt_compression',
  'EXT_texture_avif',
  'EXT_texture_webp',
  'KHR_draco_mesh_compression',
  'KHR_lights_punctual',
  'KHR_materials_anisotropy',
  'KHR_materials_clearcoat',
  'KHR_materials_dispersion',
  'KHR_materials_emissive_strength',
  'KHR_materials_ior',
  'KHR_materials_iridescence',
  'KHR_materials_sheen',
  'KHR_materials_specular',
  'KHR_materials_transmission',
  'KHR_materials_unlit',
  'KHR_materials_variants',
  'KHR_materials_volume',
  'KHR_mesh_quantization',
  'KHR_texture_basisu',
  'KHR_texture_transform',
];

/** The mismatch for one required extension a runtime does not support. */
export function extensionMismatch(name: string, supported: readonly string[]): string {
  return `extension "${name}" is not supported; expected ${supported.join(', ')}`;
}

/** The required extensions outside `supported`, in the asset's order, each once. */
export function unsupportedExtensions(required: readonly string[], supported: readonly string[]): string[] {
  return [...new Set(required)].filter((name) => !supported.includes(name));
}
