/** Hands verified image bytes to the browser: an `<img>` of a blob URL of those bytes, shown once they decoded whole. */
import { decodeImage } from './decode-image.ts';
import { blobUrl, type Presented } from './presented.ts';

/** Options of `presentImage`. */
export interface ImageOptions {
  mediaType: string;
  alt: string;
  signal?: AbortSignal | undefined;
}

/** Decodes the whole image from its bytes and only then puts it in `stage`; rejects when the browser cannot decode all of it. */
export async function presentImage(stage: HTMLElement, bytes: Uint8Array, options: ImageOptions): Promise<Presented> {
  const url = blobUrl(bytes, options.mediaType);
  const img = document.createElement('img');
  img.alt = options.alt;
  const presented = { element: img, dispose: () => (img.remove(), URL.revokeObjectURL(url)) };
  try {
    await decodeImage(img, url, bytes, options.mediaType);
    options.signal?.throwIfAborted();
  } catch (error) {
    presented.dispose();
    throw error;
  }
  stage.replaceChildren(img);
  return presented;
}
