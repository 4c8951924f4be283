/** One inspection: pick the runtime, fetch, check length and SHA-256, validate glTF, and only then present the same bytes. */
import { pickPresentable } from '@aso-registry/core/format/compatibility';
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';
import { toOrigin } from '@aso-registry/core/format/paths';
import { fetchBytes } from './fetch-bytes.ts';
import type { Presented } from './presented.ts';
import type { VerifiedBytes } from './verified-bytes.ts';
import { verifyBytes } from './verify-bytes.ts';
import type { ViewerRepresentation } from './viewer-config.ts';
import { failedView, fetchingView, hashingView, loadedView, unsupportedView, verifyingView, type ViewerView } from './viewer-state.ts';

/** What an inspection needs from the page. */
export interface InspectContext {
  /** The manifest name, the accessible label of a 3D view. */
  name: string;
  /** Images this page verified already; they are checked again and shown without a second download. */
  verified?: VerifiedBytes | undefined;
  registryUrl: string;
  /** The page's origin (`location.origin`). */
  origin: string;
  /** Where this site serves the decoders of compressed meshes and textures. */
  decoders: DecoderLocations;
  /** Where the presented element goes. */
  stage: HTMLElement;
  /** Where a 3D view's controls go. */
  controls?: HTMLElement | undefined;
  /** Shows a state; called at every step. */
  show(view: ViewerView): void;
  signal: AbortSignal;
}

/** The code that shows verified bytes, loaded once a download has begun, so that a page's first scripts stay small. */
const meshPresenter = (): Promise<typeof import('./present-mesh.ts')> => import('./present-mesh.ts');
const imagePresenter = (): Promise<typeof import('./present-image.ts')> => import('./present-image.ts');
/** gltf-validator's page side, loaded likewise. */
const validator = (): Promise<typeof import('./validate-in-worker.ts')> => import('./validate-in-worker.ts');

/** Asks for the code the next steps need while the bytes arrive (a failed request is reported by the step that needs it). */
function warmUp(mesh: boolean): void {
  if (mesh) {
    meshPresenter().catch(() => undefined);
    validator().catch(() => undefined);
  } else {
    imagePresenter().catch(() => undefined);
  }
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
  ctx.show(fetchingView(rep, 0));
  let bytes = await ctx.verified?.get(rep);
  ctx.signal.throwIfAborted();
  if (!bytes) {
    let first = true;
    const fetched = await fetchBytes(url, rep.byteLength, {
      signal: ctx.signal,
      onProgress: (received) => {
        if (first) warmUp(mesh);
        first = false;
        ctx.show(fetchingView(rep, received));
      },
    });
    if (!fetched.ok) {
      ctx.show(failedView(rep, fetched.reason, fetched.detail));
      return undefined;
    }
    bytes = fetched.bytes;
  }

  warmUp(mesh);
  ctx.show(verifyingView(rep, 'checking the byte length and the SHA-256'));
  const verified = await verifyBytes(bytes, rep, { onHashProgress: (hashed) => ctx.show(hashingView(rep, hashed)) });
  ctx.signal.throwIfAborted();
  if (!verified.ok) {
    ctx.show(failedView(rep, verified.reason, verified.detail));
    return undefined;
  }

  // Images are small and one may be the poster or inspected again; meshes are not kept beyond the view that shows them.
  if (!mesh) ctx.verified?.remember(rep, bytes);

  if (mesh) {
    ctx.show(verifyingView(rep, 'validating the glTF structure (gltf-validator)'));
    const { validateGltf } = await validator();
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

  ctx.show(verifyingView(rep, mesh ? 'verified; loading the 3D view' : 'verified; decoding the whole image'));
  let presented: Presented;
  try {
    presented = mesh
      ? await (await meshPresenter()).presentMesh(ctx.stage, bytes, { mediaType: rep.mediaType, alt: ctx.name, controls: ctx.controls, decoders: ctx.decoders, extensionsUsed, signal: ctx.signal })
      : await (await imagePresenter()).presentImage(ctx.stage, bytes, { mediaType: rep.mediaType, alt: `${ctx.name} (${rep.id})`, signal: ctx.signal });
  } catch (error) {
    ctx.signal.throwIfAborted();
    ctx.show(failedView(rep, 'render', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  ctx.show(loadedView(rep, mesh));
  return presented;
}
