/**
 * `npm run preview`: serves a built site the way the generated `_headers` tells a host to, from the same rules
 * (core/documents/host-headers.ts) and the same content-type table (core/format/content-types.ts), with `404.html` for
 * missing paths.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sirv from 'sirv';
import { contentTypeOf } from '@aso-registry/core/format/content-types';
import { headersFor } from '@aso-registry/core/documents/host-headers';

/** Options of `startPreview`. */
export interface PreviewOptions {
  /** The built site (`dist/`). */
  root: string;
  /** Default 4321; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** A running preview server. */
export interface PreviewServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * The content type a path of the site in `root` is served with: a file's by its name, and a page's for a path that
 * names a folder or leaves out `.html` (`/x/` is `/x/index.html`).
 */
function previewContentType(root: string, pathname: string): string {
  const isFile = (() => {
    try {
      return statSync(join(root, ...decodeURIComponent(pathname).split('/'))).isFile();
    } catch {
      return false;
    }
  })();
  return contentTypeOf(isFile ? pathname : 'index.html');
}

/** Starts serving `root`. */
export async function startPreview(opts: PreviewOptions): Promise<PreviewServer> {
  const notFoundPage = join(opts.root, '404.html');
  const notFound = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readFile(notFoundPage).catch(() => Buffer.from('<!DOCTYPE html><title>Not found</title><h1>Not found</h1>\n'));
    for (const [key, value] of Object.entries(headersFor('/404.html'))) res.setHeader(key, value);
    res.writeHead(404, { 'Content-Type': contentTypeOf('404.html'), 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const setHeaders = (res: ServerResponse, pathname: string): void => {
    for (const [key, value] of Object.entries(headersFor(pathname))) res.setHeader(key, value);
    res.setHeader('Content-Type', previewContentType(opts.root, pathname));
  };
  const files = sirv(opts.root, { dev: true, etag: true, extensions: ['html'], setHeaders });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Access-Control-Allow-Origin': '*' }).end();
      return;
    }
    files(req, res, () => void notFound(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 4321, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    origin: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
