/** One inspection: pick the runtime, fetch, check length and SHA-256, validate glTF, and only then present the same bytes. */
import { pickPresentable } from '../core/compatibility.ts';
import { toOrigin } from '../core/paths.ts';
import type { Representation } from '../core/types.ts';
import { fetchBytes } from './fetch-bytes.ts';
import { presentImage, presentMesh, type Presented } from './present.ts';
import { validateGltf } from './validate-gltf.ts';
import { verifyBytes } from './verify-bytes.ts';
import { failedView, fetchingView, loadedView, unsupportedView, verifyingView, type ViewerView } from './viewer-state.ts';

/** What an inspection needs from the page. */
export interface InspectContext {
  /** The manifest name, the accessible label of a 3D view. */
  name: string;
  /** The preview's URL, already on the page's origin. */
  poster?: string | undefined;
  registryUrl: string;
  /** The page's origin (`location.origin`). */
  origin: string;
  /** Where the presented element goes. */
  stage: HTMLElement;
  /** Shows a state; called at every step. */
  show(view: ViewerView): void;
  signal: AbortSignal;
}

/** Runs the whole sequence for one representation; resolves to what is shown once `loaded`, else undefined. */
export async function inspect(rep: Representation, ctx: InspectContext): Promise<Presented | undefined> {
  const pick = pickPresentable([rep]);
  if (!pick) {
    ctx.show(unsupportedView([rep]));
    return undefined;
  }
  let url: string;
  try {
    url = toOrigin(rep.url, ctx.registryUrl, ctx.origin);
  } catch {
    ctx.show(failedView(rep, 'fetch', `the url "${rep.url}" is not an absolute URL`));
    return undefined;
  }

  ctx.show(fetchingView(rep, 0));
  const fetched = await fetchBytes(url, rep.byteLength, {
    signal: ctx.signal,
    onProgress: (received) => ctx.show(fetchingView(rep, received)),
  });
  if (!fetched.ok) {
    ctx.show(failedView(rep, fetched.reason, fetched.detail));
    return undefined;
  }
  const { bytes } = fetched;

  ctx.show(verifyingView(rep, 'checking the byte length and the SHA-256'));
  const verified = await verifyBytes(bytes, rep);
  ctx.signal.throwIfAborted();
  if (!verified.ok) {
    ctx.show(failedView(rep, verified.reason, verified.detail));
    return undefined;
  }

  const mesh = pick.runtime === 'browser-gltf';
  if (mesh) {
    ctx.show(verifyingView(rep, 'validating the glTF structure (gltf-validator)'));
    const invalid = await validateGltf(bytes, `${rep.id}.${rep.format}`, ctx.signal);
    if (invalid !== null) {
      ctx.show(failedView(rep, 'validation', invalid));
      return undefined;
    }
  }

  ctx.show(verifyingView(rep, mesh ? 'verified; loading the 3D view' : 'verified; decoding the image'));
  let presented: Presented;
  try {
    presented = mesh
      ? await presentMesh(ctx.stage, bytes, { mediaType: rep.mediaType, alt: ctx.name, poster: ctx.poster, signal: ctx.signal })
      : await presentImage(ctx.stage, bytes, { mediaType: rep.mediaType, alt: `${ctx.name} (${rep.id})`, signal: ctx.signal });
  } catch (error) {
    ctx.signal.throwIfAborted();
    ctx.show(failedView(rep, 'render', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  ctx.show(loadedView(rep, mesh));
  return presented;
}
