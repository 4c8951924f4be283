/**
 * What the vendor stand-ins share: a loopback HTTP server with routes, every request kept for assertions, and the
 * script a test gives a task (its result, a failure, a rate limit, a task that never ends).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A real small GLB: the mesh of the sample registry's oak chair. */
export async function sampleGlb(): Promise<Uint8Array> {
  return new Uint8Array(await readFile(fileURLToPath(new URL('../../../registry/objects/oak-chair/versions/1.0.0/representations/mesh.glb', import.meta.url))));
}

/** One request the stand-in received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a route answers: JSON (any value), or bytes with their media type. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  bytes?: Uint8Array;
}

/** A route: method, path pattern (groups become `params`), handler. */
export type Route = [method: string, path: RegExp, handler: (request: SeenRequest, params: string[]) => Answer | Promise<Answer>];

/** What the next task does, as a test sets it. */
export interface TaskScript {
  /** The bytes served as the task's result. */
  asset: Uint8Array;
  /** The task fails, with this message in the vendor's words. */
  fail?: string;
  /** The next `times` creates answer 429 (counted down here), with `Retry-After: retryAfter` when given. */
  rateLimit?: { times: number; retryAfter?: string };
  /** The task stays running while the script says so (or until it is canceled). */
  hang?: boolean;
}

/** A running stand-in and what it saw. */
export interface StandIn {
  /** The base URL a `<VENDOR>_BASE_URL` names. */
  url: string;
  key: string;
  requests: SeenRequest[];
  script: TaskScript;
  /** The ids of every task created, and of every task canceled. */
  created: string[];
  canceled: string[];
  close(): Promise<void>;
}

/** Parses a multipart body the way a server would. */
export async function formOf(request: SeenRequest): Promise<FormData> {
  const type = request.headers['content-type'] ?? '';
  return new Response(new Uint8Array(request.body), { headers: { 'content-type': type } }).formData();
}

/** A JSON body, or undefined when it is not JSON. */
export function jsonOf(request: SeenRequest): unknown {
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Starts a server on a free loopback port; a request no route takes answers 404 with `notFound`'s body. Requests are
 * kept in `requests` (a second server, such as the storage host of signed URLs, may share the list).
 */
export async function standInServer(
  routes: readonly Route[],
  notFound: (request: SeenRequest) => unknown,
  requests: SeenRequest[] = [],
): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const seen: SeenRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      const send = (a: Answer): void => {
        if (a.bytes) {
          res.writeHead(a.status, { 'content-type': 'application/octet-stream', 'content-length': String(a.bytes.length), ...a.headers });
          res.end(Buffer.from(a.bytes));
          return;
        }
        const body = a.json === undefined ? '' : JSON.stringify(a.json);
        res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
        res.end(body);
      };
      for (const [method, path, handler] of routes) {
        const m = path.exec(url.pathname);
        if (req.method === method && m) {
          Promise.resolve(handler(seen, m.slice(1)))
            .then(send)
            .catch((error: Error) => send({ status: 500, json: { stand_in_error: error.message } }));
          return;
        }
      }
      send({ status: 404, json: notFound(seen) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Counts the polls of each task: the nth poll of a task that runs moves it on. */
export function pollCounter(): (id: string) => number {
  const polls = new Map<string, number>();
  return (id) => {
    const n = (polls.get(id) ?? 0) + 1;
    polls.set(id, n);
    return n;
  };
}

/** Whether a data URI holds an image (the way a vendor that takes data URIs reads it). */
export function isImageDataUri(value: unknown): boolean {
  return typeof value === 'string' && /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/.test(value);
}

/** Whether this create is one the script rate-limits (counting the limit down). */
export function rateLimited(script: TaskScript): boolean {
  if (!script.rateLimit || script.rateLimit.times <= 0) return false;
  script.rateLimit.times--;
  return true;
}
