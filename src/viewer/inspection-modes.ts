/**
 * The inspection modes of a 3D view: the model drawn as a wireframe, and without its textures. model-viewer has no API
 * for either, so they change the three.js materials of the loaded model and ask model-viewer to draw again.
 */
import type { Material, Object3D, Texture } from 'three';

/** The part of model-viewer's scene the modes use: the loaded model and a request to draw again. */
interface ModelScene {
  readonly model: Object3D | null;
  queueRender(): void;
}

/** The texture slots of a material that are not the environment (which is the lighting, not the model's). */
type MaterialMaps = Map<string, Texture>;

/** What one model's inspection can change, and how it was before. */
export interface InspectionModes {
  /** True when the model has at least one texture, so that turning textures off changes something. */
  readonly hasTextures: boolean;
  setWireframe(on: boolean): void;
  setTextures(on: boolean): void;
}

/**
 * model-viewer keeps its three.js scene under a symbol named `scene` (model-viewer-base.ts, pinned by package-lock.json);
 * undefined when this model-viewer has none.
 */
function modelSceneOf(viewer: HTMLElement): ModelScene | undefined {
  const key = Object.getOwnPropertySymbols(viewer).find((s) => s.description === 'scene');
  const scene = key ? (viewer as unknown as Record<symbol, unknown>)[key] : undefined;
  return scene && typeof (scene as ModelScene).queueRender === 'function' && 'model' in (scene as object) ? (scene as ModelScene) : undefined;
}

/** Every material of the model's meshes, each once. */
function materialsOf(model: Object3D): Material[] {
  const found = new Set<Material>();
  model.traverse((node) => {
    const material = (node as Object3D & { material?: Material | Material[] }).material;
    if (!material) return;
    for (const m of Array.isArray(material) ? material : [material]) found.add(m);
  });
  return [...found];
}

/** A material's texture slots that hold a texture: `map`, `normalMap`, `roughnessMap`... but `envMap`. */
function mapsOf(material: Material): MaterialMaps {
  const maps: MaterialMaps = new Map();
  for (const [key, value] of Object.entries(material)) {
    if ((key === 'map' || key.endsWith('Map')) && key !== 'envMap' && (value as Texture | null)?.isTexture) maps.set(key, value as Texture);
  }
  return maps;
}

/** The inspection modes of the model a `<model-viewer>` has loaded, or undefined when it has no scene this code knows. */
export function inspectionModes(viewer: HTMLElement): InspectionModes | undefined {
  const scene = modelSceneOf(viewer);
  const model = scene?.model;
  if (!scene || !model) return undefined;
  const materials = materialsOf(model);
  const original = new Map(materials.map((m) => [m, mapsOf(m)] as const));
  const changed = (): void => {
    for (const m of materials) m.needsUpdate = true;
    scene.queueRender();
  };
  return {
    hasTextures: [...original.values()].some((maps) => maps.size > 0),
    setWireframe(on) {
      for (const m of materials) if ('wireframe' in m) (m as Material & { wireframe: boolean }).wireframe = on;
      changed();
    },
    setTextures(on) {
      for (const [m, maps] of original) {
        for (const [key, texture] of maps) (m as unknown as Record<string, Texture | null>)[key] = on ? texture : null;
      }
      changed();
    },
  };
}
