/** A built site folder served read-only on a free loopback port, for the SDK to read as it reads a deployed site. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/** A running folder server. */
export interface SiteFolderServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** Serves `root` with GET and HEAD only; a missing path is a 404. */
export async function serveSiteFolder(root: string): Promise<SiteFolderServer> {
  const files = sirv(root, { dev: true, etag: true, extensions: ['html'] });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    files(req, res, () => void res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
