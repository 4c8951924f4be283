/** Points `<model-viewer>` at the decoders this site serves, so that it never fetches code from another origin. */
import type { DecoderLocations } from '@aso-registry/core/documents/decoders';

/** model-viewer's global configuration, read by every `<model-viewer>` when it is constructed. */
interface ModelViewerGlobal {
  dracoDecoderLocation?: string;
  ktx2TranscoderLocation?: string;
  meshoptDecoderLocation?: string;
}

/**
 * Sets the decoder locations in `self.ModelViewerElement`, resolved against `base` (the page's URL). model-viewer reads
 * them in each element's constructor, so this runs before every `<model-viewer>` is made; without it the element falls
 * back to a third-party CDN. Draco and Basis are fetched only when a model needs them; the meshopt script is fetched as
 * soon as its location is known, so it is given only with `meshopt` (once given, it stays).
 */
export function configureDecoders(
  locations: DecoderLocations,
  base: string,
  want: { meshopt: boolean },
  scope: { ModelViewerElement?: ModelViewerGlobal } = self as never,
): void {
  const abs = (path: string): string => new URL(path, base).href;
  scope.ModelViewerElement = {
    ...(scope.ModelViewerElement ?? {}),
    dracoDecoderLocation: abs(locations.draco),
    ktx2TranscoderLocation: abs(locations.ktx2),
    ...(want.meshopt ? { meshoptDecoderLocation: abs(locations.meshopt) } : {}),
  };
}
