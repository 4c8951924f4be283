/** The input image as a hosted generator takes it: in a format it accepts, as bytes to upload or as a data URI. */
import type { ProviderImage } from './provider.ts';

/** An image ready to send. */
interface SendableImage {
  bytes: Uint8Array;
  /** `png`, `jpeg` or `webp`. */
  format: string;
  mediaType: string;
  filename: string;
}

const MEDIA_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * The image in one of `accepted` (sharp's format names): as it is when it already is one, else re-encoded as PNG,
 * which every generator takes. The vendor receives these bytes, the same the manifest's input hash describes unless
 * they had to be re-encoded.
 */
export async function sendableImage(image: ProviderImage, accepted: readonly string[]): Promise<SendableImage> {
  if (accepted.includes(image.format) && MEDIA_TYPES[image.format]) {
    return { bytes: image.bytes, format: image.format, mediaType: MEDIA_TYPES[image.format]!, filename: image.filename };
  }
  const { default: sharp } = await import('sharp');
  const bytes = new Uint8Array(await sharp(image.bytes).png().toBuffer());
  return { bytes, format: 'png', mediaType: 'image/png', filename: `${image.filename.replace(/\.[^.]*$/, '') || 'image'}.png` };
}

/** `data:<media type>;base64,<bytes>`. */
export function dataUri(image: SendableImage): string {
  return `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString('base64')}`;
}
