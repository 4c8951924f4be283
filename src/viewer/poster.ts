/** The poster: the version's preview, shown in the stage until a representation replaces it, once its bytes passed their checks and decoded whole. */
import type { Representation } from '@aso-registry/core/format/types';

/**
 * Waits for the preview's verified bytes (undefined when they failed a check) and shows them in `container` as a blob
 * URL; a preview that fails its checks or does not decode is never shown, and the drawn placeholder stays.
 * `data-poster` on the container says which: `shown` or `refused`.
 */
export async function showPoster(container: HTMLElement, preview: Pick<Representation, 'mediaType'>, verified: Promise<Uint8Array | undefined>): Promise<void> {
  const bytes = await verified;
  if (!bytes) {
    container.dataset.poster = 'refused';
    return;
  }
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: preview.mediaType }));
  const img = container.ownerDocument.createElement('img');
  // The stage's own label names the object; the poster only stands in for the view.
  img.alt = '';
  try {
    // Loaded only now: the page's first scripts stay small.
    const { decodeImage } = await import('./decode-image.ts');
    await decodeImage(img, url, bytes, preview.mediaType);
  } catch {
    URL.revokeObjectURL(url);
    container.dataset.poster = 'refused';
    return;
  }
  container.append(img);
  container.dataset.poster = 'shown';
}
