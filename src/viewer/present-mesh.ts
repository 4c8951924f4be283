/** Hands verified mesh bytes to the browser: a `<model-viewer>` of a blob URL of those bytes, with its controls. */
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';
import { configureDecoders } from './decoder-setup.ts';
import { blobUrl, type Presented } from './presented.ts';

/** Options of `presentMesh`. */
export interface MeshOptions {
  mediaType: string;
  /** The accessible label: the manifest name. */
  alt: string;
  /** Where the view's controls go (auto-rotate, lighting, inspection, AR, animation). */
  controls?: HTMLElement | undefined;
  /** Where this site serves the Draco, meshopt and Basis/KTX2 decoders. */
  decoders: DecoderLocations;
  /** The asset's `extensionsUsed`: model-viewer loads the meshopt decoder as soon as it knows where, so only for assets that need it. */
  extensionsUsed?: readonly string[];
  signal?: AbortSignal | undefined;
}

/** The starting camera: model-viewer's default angles at 125% of its ideal distance (its default is 105%); also the zoom-out limit, which would otherwise stop at 105%. */
const CAMERA_ORBIT = 'auto auto 125%';

/** The AR modes that show the verified scene itself. */
export const AR_MODES = 'webxr quick-look';

/** True when the reader asked the system for less motion. */
function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Loads `<model-viewer>` (and three with it) on first use, with its decoders on this site, puts one in `stage` with the
 * bytes, camera controls and auto-rotate (none when the reader prefers reduced motion), and resolves once it has loaded
 * the model; rejects on its `error` event. AR is offered only in modes that show the scene loaded from these bytes
 * (WebXR, and Quick Look from a USDZ made of that scene): never Scene Viewer, which would download the URL again. The
 * view's controls (mesh-controls.ts, loaded with model-viewer) go into `options.controls`.
 */
export async function presentMesh(stage: HTMLElement, bytes: Uint8Array, options: MeshOptions): Promise<Presented> {
  configureDecoders(options.decoders, document.baseURI, { meshopt: options.extensionsUsed?.includes('EXT_meshopt_compression') ?? false });
  const [{ meshControls }] = await Promise.all([import('./mesh-controls.ts'), import('@google/model-viewer')]);
  options.signal?.throwIfAborted();
  const reducedMotion = prefersReducedMotion();
  const url = blobUrl(bytes, options.mediaType);
  const viewer = document.createElement('model-viewer');
  viewer.setAttribute('camera-controls', '');
  if (!reducedMotion) viewer.setAttribute('auto-rotate', '');
  // The prompt that invites dragging wiggles the model: not for readers who asked for less motion.
  else viewer.setAttribute('interaction-prompt', 'none');
  viewer.setAttribute('loading', 'eager');
  // A little farther than model-viewer's framing, so the status and the controls over the stage's edges leave the model clear.
  viewer.setAttribute('camera-orbit', CAMERA_ORBIT);
  viewer.setAttribute('max-camera-orbit', CAMERA_ORBIT);
  viewer.setAttribute('alt', options.alt);
  viewer.setAttribute('ar', '');
  viewer.setAttribute('ar-modes', AR_MODES);
  let controls: { remove(): void } | null = null;
  const presented = { element: viewer, dispose: () => (viewer.remove(), controls?.remove(), URL.revokeObjectURL(url)) };
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(options.signal?.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      viewer.addEventListener('load', () => resolve(), { once: true });
      viewer.addEventListener('error', (event) => reject(new Error(meshErrorText(event))), { once: true });
      viewer.setAttribute('src', url);
      stage.replaceChildren(viewer);
    });
  } catch (error) {
    presented.dispose();
    throw error;
  }
  controls = meshControls(viewer as Parameters<typeof meshControls>[0], options.controls ?? stage, { reducedMotion });
  return presented;
}

function meshErrorText(event: Event): string {
  const detail = (event as CustomEvent<{ type?: string; sourceError?: unknown }>).detail;
  const source = detail?.sourceError;
  const why = source instanceof Error ? source.message : source ? String(source) : detail?.type ?? 'unknown error';
  return `<model-viewer> could not load the verified bytes: ${why}`;
}
