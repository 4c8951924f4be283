/**
 * The GLB in a model's output, where the output's shape belongs to the model (fal endpoints, Replicate models): a file
 * object `{ url, content_type, file_name }` or a plain URL string, found by its media type or its `.glb` name.
 */
import { ResultRejected } from './provider.ts';

/** What an output holds: the GLB URLs in document order, and the names of the other files (for a message). */
interface OutputFiles {
  glb: string[];
  others: string[];
}

const GLB_TYPE = 'model/gltf-binary';

/** The last segment of a URL's path, without its query. */
function fileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || url;
  } catch {
    return url;
  }
}

function isUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

/** Walks `output` (to a depth that no real output reaches) and sorts the files it names. */
export function outputFiles(output: unknown): OutputFiles {
  const found: OutputFiles = { glb: [], others: [] };
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (isUrl(value)) {
      const name = fileName(value);
      if (name.toLowerCase().endsWith('.glb')) found.glb.push(value);
      else found.others.push(name);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const o = value as Record<string, unknown>;
    if (isUrl(o.url)) {
      const name = typeof o.file_name === 'string' && o.file_name !== '' ? o.file_name : fileName(o.url);
      const type = typeof o.content_type === 'string' ? o.content_type.split(';')[0]!.trim().toLowerCase() : '';
      if (type === GLB_TYPE || name.toLowerCase().endsWith('.glb')) found.glb.push(o.url);
      else found.others.push(name);
      return;
    }
    for (const item of Object.values(o)) walk(item, depth + 1);
  };
  walk(output, 0);
  return found;
}

/**
 * The first GLB URL in `output`; else a {@link ResultRejected} naming the files it has instead. `what` names the output
 * (`the result of fal request ...`), `choosing` what the publisher chooses instead (`an endpoint`, `a model`).
 */
export function glbUrlOf(output: unknown, what: string, choosing: string): string {
  const files = outputFiles(output);
  const url = files.glb[0];
  if (url) return url;
  const has = files.others.length ? `it has ${files.others.join(', ')}` : 'it has no file at all';
  throw new ResultRejected(`${what} names no GLB file (${has}); choose ${choosing} or options that output GLB`);
}
