/** A static file server on 127.0.0.1 for tests, with a hook that can serve other bytes in place of a file. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ply': 'application/octet-stream',
};

/** Returns replacement bytes (or a status) for a path, or undefined to serve the file. */
export type Override = (pathname: string, req: IncomingMessage) => { status?: number; body: Uint8Array | string; type?: string } | undefined;

export interface StaticServer {
  origin: string;
  /** Sets or clears the override hook. */
  setOverride(fn: Override | undefined): void;
  close(): Promise<void>;
}

/** Serves `root` on a free loopback port. */
export async function serveStatic(root: string, override?: Override): Promise<StaticServer> {
  let hook = override;
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const replaced = hook?.(pathname, req);
    if (replaced) {
      const body = typeof replaced.body === 'string' ? Buffer.from(replaced.body) : Buffer.from(replaced.body);
      res.writeHead(replaced.status ?? 200, {
        'content-type': replaced.type ?? TYPES[extname(pathname)] ?? 'application/octet-stream',
        'content-length': body.length,
        'access-control-allow-origin': '*',
      });
      res.end(body);
      return;
    }
    let file = normalize(join(root, pathname));
    if (!file.startsWith(normalize(root + sep)) && file !== normalize(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'access-control-allow-origin': '*',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setOverride: (fn) => void (hook = fn),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
