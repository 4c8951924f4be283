/** One inspection: pick the runtime, fetch, check length and SHA-256, validate glTF, and only then present the same bytes. */
import { pickPresentable } from '@aso-registry/core/format/compatibility';
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';
import { toOrigin } from '@aso-registry/core/format/paths';
import { fetchBytes } from './fetch-bytes.ts';
import { presentImage, presentMesh, type Presented } from './present.ts';
import { validateGltf } from './validate-in-worker.ts';
import type { VerifiedBytes } from './verified-bytes.ts';
import { verifyBytes } from './verify-bytes.ts';
import type { ViewerRepresentation } from './viewer-config.ts';
import { failedView, fetchingView, hashingView, loadedView, unsupportedView, verifyingView, type ViewerView } from './viewer-state.ts';

/** What an inspection needs from the page. */
export interface InspectContext {
  /** The manifest name, the accessible label of a 3D view. */
  name: string;
  /** The 3D view's poster: a blob URL of the verified preview, or undefined when there is none or it failed its checks. */
  poster?: (() => Promise<string | undefined>) | undefined;
  /** Images this page verified already; they are checked again and shown without a second download. */
  verified?: VerifiedBytes | undefined;
  registryUrl: string;
  /** The page's origin (`location.origin`). */
  origin: string;
  /** Where this site serves the decoders of compressed meshes and textures. */
  decoders: DecoderLocations;
  /** Where the presented element goes. */
  stage: HTMLElement;
  /** Shows a state; called at every step. */
  show(view: ViewerView): void;
  signal: AbortSignal;
}

/** Runs the whole sequence for one representation; resolves to what is shown once `loaded`, else undefined. */
export async function inspect(rep: ViewerRepresentation, ctx: InspectContext): Promise<Presented | undefined> {
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

  const mesh = pick.runtime === 'browser-gltf';
  let extensionsUsed: string[] = [];
  // The poster is fetched and verified alongside the mesh, never shown unchecked.
  const poster = mesh ? ctx.poster?.() : undefined;
  ctx.show(fetchingView(rep, 0));
  let bytes = await ctx.verified?.get(rep);
  ctx.signal.throwIfAborted();
  if (!bytes) {
    const fetched = await fetchBytes(url, rep.byteLength, {
      signal: ctx.signal,
      onProgress: (received) => ctx.show(fetchingView(rep, received)),
    });
    if (!fetched.ok) {
      ctx.show(failedView(rep, fetched.reason, fetched.detail));
      return undefined;
    }
    bytes = fetched.bytes;
  }

  ctx.show(verifyingView(rep, 'checking the byte length and the SHA-256'));
  const verified = await verifyBytes(bytes, rep, { onHashProgress: (hashed) => ctx.show(hashingView(rep, hashed)) });
  ctx.signal.throwIfAborted();
  if (!verified.ok) {
    ctx.show(failedView(rep, verified.reason, verified.detail));
    return undefined;
  }

  // Images are small and one may be the poster; meshes are not kept beyond the view that shows them.
  if (!mesh) ctx.verified?.remember(rep, bytes);

  if (mesh) {
    ctx.show(verifyingView(rep, 'validating the glTF structure (gltf-validator)'));
    const validation = await validateGltf(bytes, `${rep.id}.${rep.format}`, ctx.signal);
    if (validation.failure !== null) {
      ctx.show(failedView(rep, 'validation', validation.failure));
      return undefined;
    }
    // The bytes are the judge: an extension they require that the runtime lacks is Unsupported, whatever the page said.
    extensionsUsed = validation.extensionsUsed;
    const asRead = { ...rep, gltf: { extensionsRequired: validation.extensionsRequired } };
    if (!pickPresentable([asRead])) {
      ctx.show(unsupportedView([asRead]));
      return undefined;
    }
  }

  ctx.show(verifyingView(rep, mesh ? 'verified; loading the 3D view' : 'verified; decoding the image'));
  let presented: Presented;
  try {
    presented = mesh
      ? await presentMesh(ctx.stage, bytes, { mediaType: rep.mediaType, alt: ctx.name, poster: await poster, decoders: ctx.decoders, extensionsUsed, signal: ctx.signal })
      : await presentImage(ctx.stage, bytes, { mediaType: rep.mediaType, alt: `${ctx.name} (${rep.id})`, signal: ctx.signal });
  } catch (error) {
    ctx.signal.throwIfAborted();
    ctx.show(failedView(rep, 'render', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  ctx.show(loadedView(rep, mesh));
  return presented;
}
