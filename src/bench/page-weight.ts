/** The weight of a built record page: its HTML, and the JavaScript it loads before the viewer asks for a mesh. */
import { readFile } from 'node:fs/promises';
import { dirname, join, posix, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Bytes of a page or its scripts, raw and gzip-compressed (what a CDN sends). */
interface Weight {
  bytes: number;
  gzipBytes: number;
}

/** What a record page weighs. */
export interface PageWeight {
  html: Weight;
  /** Inline scripts and the module graph reached by static imports from the page; dynamic `import()` is left out. */
  initialJs: Weight & { files: string[] };
}

export { folderSize } from '../io/folder-size.ts';

function weigh(bytes: Uint8Array): Weight {
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const PRELOAD = /<link\b[^>]*rel=["']?modulepreload["']?[^>]*>/gi;
const ATTR = (name: string): RegExp => new RegExp(`\\b${name}=["']?([^"'\\s>]+)`, 'i');
// Static imports and re-exports in bundled ES modules: `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`.
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+\.m?js)["']/g;

/** Weighs the record page at `page` (an `index.html` inside `siteDir`). */
export async function recordPageWeight(siteDir: string, page: string): Promise<PageWeight> {
  const htmlBytes = await readFile(page);
  const html = htmlBytes.toString('utf8');
  const inline: Uint8Array[] = [];
  const queue: string[] = [];
  const toFile = (src: string, from: string): string | null => {
    if (/^[a-z]+:\/\//i.test(src)) return null;
    const path = src.startsWith('/') ? join(siteDir, ...src.split('/')) : resolve(dirname(from), ...src.split('/'));
    return path.startsWith(resolve(siteDir) + sep) ? path : null;
  };
  for (const [, attrs, body] of html.matchAll(SCRIPT)) {
    const type = ATTR('type').exec(attrs!)?.[1];
    if (type && !/module|javascript/i.test(type)) continue; // JSON data, not code
    const src = ATTR('src').exec(attrs!)?.[1];
    if (src) {
      const file = toFile(src, page);
      if (file) queue.push(file);
    } else if (body!.trim()) {
      inline.push(Buffer.from(body!));
      for (const [, spec] of body!.matchAll(STATIC_IMPORT)) {
        const file = toFile(spec!, page);
        if (file) queue.push(file);
      }
    }
  }
  for (const [tag] of html.matchAll(PRELOAD)) {
    const href = ATTR('href').exec(tag)?.[1];
    const file = href && toFile(href, page);
    if (file) queue.push(file);
  }
  const seen = new Set<string>();
  const parts = [...inline];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const bytes = await readFile(file);
    parts.push(bytes);
    for (const [, spec] of bytes.toString('utf8').matchAll(STATIC_IMPORT)) {
      const next = spec!.startsWith('.') || spec!.startsWith('/') ? toFile(spec!, file) : null;
      if (next) queue.push(next);
    }
  }
  const js = weigh(Buffer.concat(parts));
  return {
    html: weigh(htmlBytes),
    initialJs: { ...js, files: [...seen].map((f) => posix.join(...f.slice(resolve(siteDir).length + 1).split(sep))) },
  };
}
