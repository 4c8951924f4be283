/** The input image of a publish: read from a file or fetched from a URL, and checked to be an image sharp can read. */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { PublishError } from './publish-error.ts';

/** The image a job is made from. */
export interface InputImage {
  bytes: Uint8Array;
  /** A file name to upload it as (the file's own name, or the last segment of the URL). */
  filename: string;
  /** Where it came from as the manifest records it: the file name (never a local path) or the URL. */
  label: string;
  /** The URL the job API fetches, when the image was given as one (as given, query included). */
  url?: string;
  format: string;
  width: number;
  height: number;
}

/** The largest input image read, in bytes. */
const MAX_INPUT_BYTES = 50 * 1024 * 1024;

const READABLE = ['jpeg', 'png', 'webp', 'avif', 'heif', 'gif', 'tiff'];

/** True when `source` is an http(s) URL rather than a path. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Reads and checks the image at `source` (a path relative to `cwd`, or an http(s) URL). */
export async function readInputImage(source: string, cwd: string, signal?: AbortSignal): Promise<InputImage> {
  if (source.trim() === '') throw new PublishError('--image is empty; give a path to an image file or an http(s) URL');
  if (isUrl(source)) return fetchImage(source, signal);
  const path = resolve(cwd, source);
  let bytes: Uint8Array;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new PublishError(`--image ${source}: is not a file`);
    if (info.size > MAX_INPUT_BYTES) throw new PublishError(`--image ${source}: has ${info.size} bytes; the limit is ${MAX_INPUT_BYTES}`);
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof PublishError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new PublishError(`--image ${source}: cannot be read (${why})`);
  }
  const name = basename(path);
  return { bytes, filename: name, label: name, ...(await describe(bytes, `--image ${source}`)) };
}

async function fetchImage(url: string, signal?: AbortSignal): Promise<InputImage> {
  let res: Response;
  try {
    res = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(30_000)]) : AbortSignal.timeout(30_000) });
  } catch (error) {
    const e = error as { cause?: { code?: string }; message?: string };
    throw new PublishError(`--image ${url}: cannot be fetched (${e.cause?.code ?? e.message ?? String(error)})`);
  }
  if (!res.ok) throw new PublishError(`--image ${url}: the server answered ${res.status} ${res.statusText}`.trimEnd());
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > MAX_INPUT_BYTES) throw new PublishError(`--image ${url}: has ${length} bytes; the limit is ${MAX_INPUT_BYTES}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_INPUT_BYTES) throw new PublishError(`--image ${url}: has ${bytes.length} bytes; the limit is ${MAX_INPUT_BYTES}`);
  const parsed = new URL(url);
  const last = safeDecode(parsed.pathname.split('/').pop() ?? '') || 'image';
  // The manifest records where the image came from, without a query or fragment that may carry a token.
  const label = `${parsed.origin}${parsed.pathname}`;
  return { bytes, filename: last, label, url, ...(await describe(bytes, `--image ${label}`)) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Format and size, or a PublishError naming `what` when the bytes are not a readable image. */
export async function describe(bytes: Uint8Array, what: string): Promise<{ format: string; width: number; height: number }> {
  if (bytes.length === 0) throw new PublishError(`${what}: is empty`);
  const { default: sharp } = await import('sharp');
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.format || !READABLE.includes(meta.format) || !meta.width || !meta.height) throw new Error(`format ${meta.format ?? 'unknown'}`);
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch (error) {
    throw new PublishError(`${what}: is not a readable image (${(error as Error).message}); use a PNG, JPEG or WebP file`);
  }
}
