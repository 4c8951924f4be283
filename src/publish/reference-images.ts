/** The two images a published version carries beside its asset: the reference (the input as JPEG) and the preview. */
import type { VersionFile } from './version-draft.ts';

/** The longest side of the preview, in pixels. */
const PREVIEW_SIZE = 400;

/** The longest side of the reference image, in pixels (larger inputs are scaled down). */
const REFERENCE_MAX = 2048;

/**
 * The input re-encoded as JPEG: turned upright by its EXIF orientation, transparency flattened on white,
 * and no metadata kept (sharp drops EXIF, XMP, IPTC and ICC unless asked), so no camera or location data is published.
 */
export async function referenceImage(input: Uint8Array): Promise<VersionFile> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(input)
    .rotate()
    .resize({ width: REFERENCE_MAX, height: REFERENCE_MAX, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return imageFile({ id: 'reference', type: 'image', format: 'jpg', mediaType: 'image/jpeg' }, 'reference-image', data, info);
}

/** A PNG preview, at most PREVIEW_SIZE pixels on its longest side, made from the input image. */
export async function previewImage(input: Uint8Array): Promise<VersionFile> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(input)
    .rotate()
    .resize({ width: PREVIEW_SIZE, height: PREVIEW_SIZE, fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  return imageFile({ id: 'preview', type: 'image', format: 'png', mediaType: 'image/png' }, 'preview', data, info);
}

/** A version file of encoded image bytes and their size. */
function imageFile(rep: VersionFile['rep'], role: VersionFile['role'], data: Buffer, info: { width: number; height: number }): VersionFile {
  return { rep, role, bytes: new Uint8Array(data), width: info.width, height: info.height };
}
