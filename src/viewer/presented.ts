/** What a viewer's stage shows, and the blob URL every presentation hands the browser. */

/** Something shown in the stage, and how to take it down again. */
export interface Presented {
  element: HTMLElement;
  dispose(): void;
}

/** A blob URL of exactly these bytes. */
export function blobUrl(bytes: Uint8Array, mediaType: string): string {
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mediaType }));
}
