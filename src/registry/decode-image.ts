/**
 * The image rule's decode: every image the check accepts is decoded in full, so that a file whose header reads but
 * whose pixels do not (cut short, damaged) is refused rather than published as a blank picture. First the walk of its
 * structure (core/format/image-structure.ts), which names a file cut short without decoding it and sees a PNG cut
 * after its image data, which no decoder reads; then sharp decodes every row of every frame, failing on libvips's
 * warnings too (`failOn: 'warning'`, as the thumbnail step decodes): libjpeg reports damaged entropy-coded data only as
 * a warning. See docs/decisions/0017-images-decoded-in-full.md.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { ImageHeader } from '@aso-registry/core/format/image-header';
import { imageStructureProblem } from '@aso-registry/core/format/image-structure';

/**
 * Each image on one libvips thread: the check decodes several images at once, and for small images a thread per core
 * for each costs more in waking threads than the decoding (the thumbnail step sets the same, see thumbnails.ts).
 */
sharp.concurrency(1);

/** No libvips operation cache: each image is decoded once, so keeping its operations for reuse only costs. */
sharp.cache(false);

/** The longest decoder message kept in a problem: libvips may repeat one line per row. */
const MESSAGE_MAX = 240;

/**
 * Why the image (its bytes, or a file's path) whose header is `header` does not decode in full, or null when every row
 * of every frame decodes. A file not held in memory is read whole, as gltf-validator reads a mesh.
 */
export async function decodeProblem(image: string | Uint8Array, header: ImageHeader): Promise<string | null> {
  const bytes = typeof image === 'string' ? await readFile(image) : image;
  const structural = imageStructureProblem(bytes, header.format ?? '');
  if (structural) return structural;
  const { width, height } = header;
  if (!width || !height) return 'its header gives no width and height';
  try {
    // Every row is decoded to reach the last one, which alone is kept: a large image never lies decoded in memory.
    // An animated WebP's frames are each cut to their last row, so every frame is decoded too.
    const frames = header.format === 'webp' && (header.pages ?? 1) > 1 ? { pages: -1 } : {};
    await sharp(bytes, { failOn: 'warning', ...frames })
      .extract({ left: 0, top: height - 1, width, height: 1 })
      .raw()
      .toBuffer();
    return null;
  } catch (error) {
    return `the decoder stops: ${decoderMessage(error)}`;
  }
}

/** libvips's error as one line: its distinct lines, without the line that says a warning was taken as an error. */
function decoderMessage(error: unknown): string {
  const lines = String(error instanceof Error ? error.message : error)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^Warning treated as error/i.test(line));
  // Escaped: a decoder may quote bytes of the file, and the problem is printed to a terminal.
  const text = [...new Set(lines)].join('; ').replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) || 'no reason given';
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}
