/**
 * An image's header read from its bytes, as sharp's `metadata()` reports it, for the plain cases: a baseline or
 * progressive 8-bit JPEG (grey or colour), a PNG, a still WebP. sharp's `metadata()` costs about 0.4 ms of CPU per image,
 * most of it on the calling thread, where it held up the check of ten thousand small images by seconds; these bytes
 * are read in microseconds. Anything this reader is not sure of (another format, a marker or chunk it does not know to
 * be harmless, an EXIF block it cannot walk, any inconsistency) gives `null`, and the caller asks sharp, whose answer
 * (or error) stands. `test/core/image-header.test.ts` holds this reader to sharp's answer on images from real encoders.
 */

/** What is read of an image's header: the fields of sharp's `metadata()` that the check and the thumbnails use. */
export interface ImageHeader {
  /** sharp's name of the format: `jpeg`, `png`, `webp`, `heif`. */
  format?: string;
  /** For HEIF: `av1` (AVIF) or `hevc`. */
  compression?: string;
  width?: number;
  height?: number;
  /** EXIF orientation (1-8); absent when the image has no EXIF orientation. */
  orientation?: number;
  /** Frames of an animated image. */
  pages?: number;
  /** The colour space: `srgb`, `b-w`, `cmyk`, `rgb16`, `grey16`, ... */
  space?: string;
}

/** The header of `bytes` when it is one of the plain cases this reader knows, else null (ask sharp). */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  try {
    if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes);
    if (bytes.length > 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngHeader(bytes);
    if (bytes.length > 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpHeader(bytes);
  } catch (error) {
    if (error instanceof RangeError) return null; // read past the end: not a plain case
    throw error;
  }
  return null;
}

/** Start-of-frame markers of the Huffman-coded JPEGs libjpeg reads: baseline, extended sequential, progressive. */
const PLAIN_SOF = new Set([0xc0, 0xc1, 0xc2]);

/** Markers a JPEG header may hold before its scan that say nothing sharp reports: tables, restart interval, comments, APPn. */
function harmlessJpegMarker(marker: number): boolean {
  return marker === 0xc4 || marker === 0xdb || marker === 0xdd || marker === 0xfe || (marker >= 0xe0 && marker <= 0xef);
}

/** A JPEG's header: its one frame's size and components, and the orientation of its EXIF block, up to its first scan. */
function jpegHeader(bytes: Uint8Array): ImageHeader | null {
  let at = 2;
  let frame: { width: number; height: number; components: number } | null = null;
  let orientation: number | undefined;
  let exifBlocks = 0;
  for (;;) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    const length = readUint16(bytes, at + 2, false);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    const body = bytes.subarray(at + 4, at + 2 + length);
    if (marker === 0xda) break; // start of scan: the header is read
    if (PLAIN_SOF.has(marker)) {
      if (frame || body[0] !== 8) return null;
      const components = body[5]!;
      if (length !== 8 + 3 * components) return null;
      frame = { height: readUint16(body, 1, false), width: readUint16(body, 3, false), components };
    } else if (!harmlessJpegMarker(marker)) return null;
    if (marker === 0xe1 && ascii(body, 0, 6) === 'Exif\0\0') {
      if (++exifBlocks > 1) return null;
      const read = exifOrientation(body.subarray(6));
      if (read === null) return null;
      orientation = read;
    }
    at += 2 + length;
  }
  if (!frame || !frame.width || !frame.height) return null;
  const space = frame.components === 1 ? 'b-w' : frame.components === 3 ? 'srgb' : null;
  if (!space) return null;
  return { format: 'jpeg', width: frame.width, height: frame.height, ...(orientation === undefined ? {} : { orientation }), space };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Chunks before the image data that say nothing sharp reports (colour management, text, physical size, time, ...). */
const HARMLESS_PNG_CHUNKS = new Set(['PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'bKGD', 'pHYs', 'tIME', 'tEXt', 'zTXt', 'iTXt', 'hIST', 'sPLT']);

/** One chunk of a PNG, whole: its length within the bytes and its CRC right. */
export interface PngChunk {
  type: string;
  data: Uint8Array;
}

/**
 * A PNG's chunks in order (after its 8-byte signature), through the first of type `last`, and the offset just past it;
 * null when a chunk before it runs past the end or has a wrong CRC, or when no chunk of that type comes. Each chunk is
 * its data's length, its type, its data and the CRC of type and data.
 */
export function pngChunks(bytes: Uint8Array, last: string): { chunks: PngChunk[]; end: number } | null {
  const chunks: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = readUint32(bytes, at, false);
    const end = at + 8 + length;
    if (end + 4 > bytes.length || crc32(bytes.subarray(at + 4, end)) !== readUint32(bytes, end, false)) return null;
    const type = ascii(bytes, at + 4, 4);
    chunks.push({ type, data: bytes.subarray(at + 8, end) });
    at = end + 4;
    if (type === last) return { chunks, end: at };
  }
  return null;
}

/** A PNG's header: its IHDR, and its chunks up to the first IDAT, each whole (length and CRC). */
function pngHeader(bytes: Uint8Array): ImageHeader | null {
  const read = pngChunks(bytes, 'IDAT');
  const ihdr = read?.chunks[0];
  if (!ihdr || ihdr.type !== 'IHDR' || ihdr.data.length !== 13) return null;
  let palette: Uint8Array | null = null;
  let orientation: number | undefined;
  for (const { type, data } of read.chunks.slice(1, -1)) {
    if (type === 'PLTE') palette = data;
    else if (type === 'eXIf') {
      if (orientation !== undefined) return null;
      const found = exifOrientation(data);
      if (found === null) return null;
      orientation = found;
    } else if (!HARMLESS_PNG_CHUNKS.has(type)) return null; // an animation (acTL), an unknown chunk: sharp decides
  }
  const header = ihdr.data;
  const width = readUint32(header, 0, false);
  const height = readUint32(header, 4, false);
  const depth = header[8]!;
  const colour = header[9]!;
  if (!width || !height || width > 0x7fffffff || height > 0x7fffffff || header[10] !== 0 || header[11] !== 0 || header[12]! > 1) return null;
  const space = pngSpace(colour, depth, palette);
  if (!space) return null;
  return { format: 'png', width, height, ...(orientation === undefined ? {} : { orientation }), space };
}

/** The colour space sharp names for a PNG's colour type and bit depth, or null when this reader leaves it to sharp. */
function pngSpace(colour: number, depth: number, palette: Uint8Array | null): string | null {
  const low = [1, 2, 4, 8].includes(depth);
  switch (colour) {
    case 0: // grey
      return depth === 16 ? 'grey16' : low ? 'b-w' : null;
    case 4: // grey and alpha
      return depth === 16 ? 'grey16' : depth === 8 ? 'b-w' : null;
    case 2: // colour
    case 6: // colour and alpha
      return depth === 16 ? 'rgb16' : depth === 8 ? 'srgb' : null;
    case 3: // a palette: one of greys only may be read as grey, which sharp says
      return palette && low && !greyPalette(palette) ? 'srgb' : null;
    default:
      return null;
  }
}

/** Whether every entry of a PNG palette is a grey (red, green and blue alike). */
function greyPalette(palette: Uint8Array): boolean {
  for (let i = 0; i + 2 < palette.length; i += 3) if (palette[i] !== palette[i + 1] || palette[i] !== palette[i + 2]) return false;
  return true;
}

/** A still WebP's header: a simple lossy or lossless image, or an extended one with neither animation nor EXIF. */
function webpHeader(bytes: Uint8Array): ImageHeader | null {
  if (readUint32(bytes, 4, true) + 8 !== bytes.length) return null;
  let at = 12;
  let canvas: { width: number; height: number } | null = null;
  for (;;) {
    const type = ascii(bytes, at, 4);
    const length = readUint32(bytes, at + 4, true);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return null;
    if (type === 'VP8X') {
      if (canvas || at !== 12 || length < 10) return null;
      const flags = data[0]!;
      if (flags & 0x02 || flags & 0x08) return null; // animation, EXIF: sharp reads frames and orientation
      canvas = { width: readUint24(data, 4) + 1, height: readUint24(data, 7) + 1 };
    } else if (type === 'VP8 ' || type === 'VP8L') {
      const size = type === 'VP8 ' ? vp8Size(data) : vp8lSize(data);
      if (!size || (canvas && (canvas.width !== size.width || canvas.height !== size.height))) return null;
      return { format: 'webp', width: size.width, height: size.height, space: 'srgb' };
    } else if (!canvas || !['ICCP', 'ALPH', 'XMP '].includes(type)) return null;
    at += 8 + length + (length & 1);
  }
}

/** The size in a lossy WebP's key frame header, or null when it is not one. */
function vp8Size(data: Uint8Array): { width: number; height: number } | null {
  if (data.length < 10 || (data[0]! & 1) !== 0 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return null;
  const width = readUint16(data, 6, true) & 0x3fff;
  const height = readUint16(data, 8, true) & 0x3fff;
  return width && height ? { width, height } : null;
}

/** The size in a lossless WebP's header, or null when it is not one. */
function vp8lSize(data: Uint8Array): { width: number; height: number } | null {
  if (data.length < 5 || data[0] !== 0x2f) return null;
  const bits = readUint32(data, 1, true);
  if (bits >>> 29 !== 0) return null; // the version, always 0
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

/**
 * The orientation in an EXIF block (a TIFF header and its first directory): its value 1-8, undefined when the block has
 * no orientation tag, null when the block cannot be walked or the tag is not a plain value of 1 to 8.
 */
function exifOrientation(tiff: Uint8Array): number | undefined | null {
  const order = ascii(tiff, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  if (readUint16(tiff, 2, little) !== 42) return null;
  const ifd = readUint32(tiff, 4, little);
  const entries = readUint16(tiff, ifd, little);
  if (ifd < 8 || ifd + 2 + entries * 12 + 4 > tiff.length) return null;
  let orientation: number | undefined;
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (readUint16(tiff, entry, little) !== 0x0112) continue;
    const value = readUint16(tiff, entry + 8, little);
    if (orientation !== undefined || readUint16(tiff, entry + 2, little) !== 3 || readUint32(tiff, entry + 4, little) !== 1 || value < 1 || value > 8) return null;
    orientation = value;
  }
  return orientation;
}

/** CRC-32 (ISO 3309, as PNG uses it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** `length` bytes at `at` read as ASCII (a chunk type, a signature); throws RangeError past the end. */
export function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) throw new RangeError('past the end');
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readUint16(bytes: Uint8Array, at: number, little: boolean): number {
  return view(bytes).getUint16(at, little);
}

function readUint24(bytes: Uint8Array, at: number): number {
  if (at + 3 > bytes.length) throw new RangeError('past the end');
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

/** The unsigned 32-bit integer at `at`; throws RangeError past the end. */
export function readUint32(bytes: Uint8Array, at: number, little: boolean): number {
  return view(bytes).getUint32(at, little);
}
