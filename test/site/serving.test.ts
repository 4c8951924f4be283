/**
 * Every file served right: the preview server over the built sample site (content types from the one table, CORS on
 * every JSON and byte path, 404.html), and the nginx example read out of docs/site.md and checked against the
 * table and nginx's own mime.types.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPES, contentTypeOf, nginxExtraTypes } from '@aso-registry/core/format/content-types';
import { startPreview, type PreviewServer } from '../../src/site/serve/preview-server.ts';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';

let dist: string;
let preview: PreviewServer;
let files: string[];

beforeAll(async () => {
  dist = siteDir();
  preview = await startPreview({ root: dist, port: 0 });
  files = (await readdir(dist, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dist.length + 1).split('\\').join('/'));
});
afterAll(() => preview?.close());

describe('the preview server', () => {
  it('serves every file of the site with its content type from the table and CORS', async () => {
    expect(files).toContain('ledger.jsonl');
    expect(files).toContain('_headers');
    expect(files.some((f) => f.endsWith('.ply'))).toBe(true);
    expect(files.some((f) => f.startsWith('pagefind/'))).toBe(true);
    for (const file of files) {
      const res = await fetch(`${preview.origin}/${file}`, { method: 'HEAD' });
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(contentTypeOf(file));
      expect(res.headers.get('access-control-allow-origin'), file).toBe('*');
    }
  });

  it('gives the ledger, point clouds and _headers a real content type', async () => {
    const ledger = await fetch(`${preview.origin}/ledger.jsonl`, { headers: { origin: 'https://elsewhere.example' } });
    expect(ledger.headers.get('content-type')).toBe('application/jsonl');
    expect(ledger.headers.get('access-control-allow-origin')).toBe('*');
    expect(ledger.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    expect(await ledger.text()).toBe(await readFile(join(dist, 'ledger.jsonl'), 'utf8'));
    const ply = files.find((f) => f.endsWith('.ply'))!;
    const cloud = await fetch(`${preview.origin}/${ply}`);
    expect(cloud.headers.get('content-type')).toBe('application/octet-stream');
    expect(cloud.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${preview.origin}/_headers`)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // The transparency log's files: the checkpoint is text that grows, tiles are bytes, keys are text.
    const checkpoint = await fetch(`${preview.origin}/checkpoint`);
    expect(checkpoint.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(checkpoint.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    const tile = files.find((f) => f.startsWith('tile/'))!;
    expect((await fetch(`${preview.origin}/${tile}`)).headers.get('content-type')).toBe('application/octet-stream');
    expect((await fetch(`${preview.origin}/log.pub`)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('serves the thumbnails, all WebP, as image/webp and immutable', async () => {
    const thumbnails = files.filter((f) => f.startsWith('thumbnails/'));
    expect(thumbnails.length).toBeGreaterThan(0);
    for (const file of thumbnails) {
      expect(file).toMatch(/^thumbnails\/[0-9a-f]{64}-(320x240|640x480)-e2\.webp$/);
      const res = await fetch(`${preview.origin}/${file}`);
      expect(res.headers.get('content-type'), file).toBe('image/webp');
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      // RIFF....WEBP: the bytes are what the type says.
      const head = Buffer.from(await res.arrayBuffer()).subarray(0, 12);
      expect([head.toString('latin1', 0, 4), head.toString('latin1', 8, 12)], file).toEqual(['RIFF', 'WEBP']);
    }
  });

  it('serves pages at their folder paths and 404.html with status 404 for anything else', async () => {
    const record = await fetch(`${preview.origin}/objects/oak-chair/versions/1.0.0/`);
    expect(record.status).toBe(200);
    expect(record.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const path of ['/nothing-here', '/objects/oak-chair/versions/9.9.9/', '/objects/oak-chair/versions/1.0.0/representations/none.glb']) {
      const missing = await fetch(`${preview.origin}${path}`);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await missing.text()).toBe(await readFile(join(dist, '404.html'), 'utf8'));
    }
  });
});

describe("the nginx example of docs/site.md", () => {
  const nginxBlock = async (): Promise<string> => {
    const readme = await readFile(join(repoRoot, 'docs', 'site.md'), 'utf8');
    const blocks = [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(1);
    return blocks[0]!;
  };
  /** Extension -> type of an nginx `types { }` body. */
  const typesOf = (body: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const line of body.replace(/#.*$/gm, '').split(';')) {
      const [type, ...exts] = line.trim().split(/\s+/);
      if (type) for (const ext of exts) out.set(ext, type);
    }
    return out;
  };

  it('serves the log files that have no extension with their own default type', async () => {
    const block = await nginxBlock();
    expect(block).toMatch(/location = \/checkpoint \{\s*default_type "text\/plain; charset=utf-8";/);
    expect(block).toMatch(/location \/tile\/ \{ default_type application\/octet-stream; \}/);
  });

  it("keeps nginx's mime.types and adds exactly the table's extensions it lacks", async () => {
    const block = await nginxBlock();
    expect(block).toMatch(/^\s*include mime\.types;$/m);
    const added = /types \{([^}]*)\}/.exec(block)![1]!;
    expect(added.trim().split('\n').map((l) => l.trim())).toEqual(nginxExtraTypes());
    const stock = typesOf(/types \{([\s\S]*)\}/.exec(await readFile(join(repoRoot, 'test/fixtures/nginx/mime.types'), 'utf8'))![1]!);
    for (const ext of typesOf(added).keys()) expect(stock.has(ext), `${ext} is in mime.types already`).toBe(false);
    for (const e of CONTENT_TYPES) expect(stock.has(e.ext) || typesOf(added).get(e.ext) === e.type.split(';')[0], `.${e.ext} gets no type`).toBe(true);
  });

  it('answers with 404.html and allows every origin, in every location that sets its own headers', async () => {
    const block = await nginxBlock();
    expect(block).toMatch(/^\s*error_page 404 \/404\.html;$/m);
    const server = block.replace(/location[^{]*\{[^}]*\}/g, '');
    expect(server).toContain('add_header Access-Control-Allow-Origin "*" always;');
    for (const location of block.match(/location[^{]*\{[^}]*\}/g)!) {
      if (location.includes('add_header')) expect(location, location).toContain('add_header Access-Control-Allow-Origin "*" always;');
    }
    expect(block).toMatch(/location ~ \^\/\(ledger\|retractions\)\\\.jsonl\$/);
  });
});
