/** Hands verified bytes to the browser: a mesh to `<model-viewer>`, an image to `<img>`, always through a blob URL of those bytes. */
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';
import { animationControls, type AnimatedViewer } from './animation-controls.ts';
import { configureDecoders } from './decoder-setup.ts';

/** Something shown in the stage, and how to take it down again. */
export interface Presented {
  element: HTMLElement;
  dispose(): void;
}

/** Options of `presentMesh`. */
export interface MeshOptions {
  mediaType: string;
  /** The accessible label: the manifest name. */
  alt: string;
  /** An image shown until the model is drawn. */
  poster?: string | undefined;
  /** Where this site serves the Draco, meshopt and Basis/KTX2 decoders. */
  decoders: DecoderLocations;
  /** The asset's `extensionsUsed`: model-viewer loads the meshopt decoder as soon as it knows where, so only for assets that need it. */
  extensionsUsed?: readonly string[];
  signal?: AbortSignal | undefined;
}

/** Options of `presentImage`. */
export interface ImageOptions {
  mediaType: string;
  alt: string;
  signal?: AbortSignal | undefined;
}

/** A blob URL of exactly these bytes. */
function blobUrl(bytes: Uint8Array, mediaType: string): string {
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mediaType }));
}

/** True when the reader asked the system for less motion. */
function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Loads `<model-viewer>` (and three with it) on first use, with its decoders on this site, puts one in `stage` with the
 * bytes, camera controls and auto-rotate (none when the reader prefers reduced motion), and resolves once it has loaded
 * the model; rejects on its `error` event. A model with animations plays the first one (paused under reduced motion)
 * and gets the animation controls below the view.
 */
export async function presentMesh(stage: HTMLElement, bytes: Uint8Array, options: MeshOptions): Promise<Presented> {
  configureDecoders(options.decoders, document.baseURI, { meshopt: options.extensionsUsed?.includes('EXT_meshopt_compression') ?? false });
  await import('@google/model-viewer');
  options.signal?.throwIfAborted();
  const reducedMotion = prefersReducedMotion();
  const url = blobUrl(bytes, options.mediaType);
  const viewer = document.createElement('model-viewer');
  viewer.setAttribute('camera-controls', '');
  if (!reducedMotion) viewer.setAttribute('auto-rotate', '');
  // The prompt that invites dragging wiggles the model: not for readers who asked for less motion.
  else viewer.setAttribute('interaction-prompt', 'none');
  viewer.setAttribute('loading', 'eager');
  viewer.setAttribute('alt', options.alt);
  if (options.poster) viewer.setAttribute('poster', options.poster);
  let controls: HTMLElement | null = null;
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
  controls = animationControls(viewer as AnimatedViewer, { reducedMotion });
  if (controls) stage.append(controls);
  return presented;
}

/** Decodes the image from its bytes and puts it in `stage`; rejects when the browser cannot decode it. */
export async function presentImage(stage: HTMLElement, bytes: Uint8Array, options: ImageOptions): Promise<Presented> {
  const url = blobUrl(bytes, options.mediaType);
  const img = document.createElement('img');
  img.alt = options.alt;
  img.src = url;
  const presented = { element: img, dispose: () => (img.remove(), URL.revokeObjectURL(url)) };
  try {
    await img.decode().catch(() => {
      throw new Error(`the browser cannot decode these bytes as ${options.mediaType}`);
    });
    options.signal?.throwIfAborted();
  } catch (error) {
    presented.dispose();
    throw error;
  }
  stage.replaceChildren(img);
  return presented;
}

function meshErrorText(event: Event): string {
  const detail = (event as CustomEvent<{ type?: string; sourceError?: unknown }>).detail;
  const source = detail?.sourceError;
  const why = source instanceof Error ? source.message : source ? String(source) : detail?.type ?? 'unknown error';
  return `<model-viewer> could not load the verified bytes: ${why}`;
}
