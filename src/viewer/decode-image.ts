/**
 * Decodes a picture in full before it is shown. `img.decode()` alone resolves for a file cut short (the browser draws
 * what it has and leaves the rest blank), so the bytes are first decoded into an ImageBitmap, which needs all of them.
 */

/** Decodes `bytes` whole, then loads `url` (a blob URL of the same bytes) into `img`; rejects with the reason when either fails. */
export async function decodeImage(img: HTMLImageElement, url: string, bytes: Uint8Array, mediaType: string): Promise<void> {
  const refused = (error: unknown): Error =>
    new Error(`the browser cannot decode these bytes as ${mediaType} (cut short or corrupt?): ${error instanceof Error ? error.message : String(error)}`);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mediaType }));
  } catch (error) {
    throw refused(error);
  }
  bitmap.close();
  img.src = url;
  await img.decode().catch((error: unknown) => {
    throw refused(error);
  });
}
