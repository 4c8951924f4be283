/** A loopback HTTP server whose answers a test scripts, request by request, for the failures a real server rarely gives. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers; `hang` never answers. */
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: string | Uint8Array } | 'hang';

/** One request the server received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Starts a server that answers request `n` (from 1) with `answer(request, n)`. */
export async function scriptedApi(answer: (request: SeenRequest, n: number) => ScriptedAnswer): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      const a = answer(seen, requests.length);
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers);
      res.end(a.body);
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

/** A job document as the API writes it; `over` replaces fields. */
export function jobJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'job-1',
    object: 'job',
    status: 'queued',
    model: 'relief',
    model_version: '1.0.0',
    progress: 0,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    download_url: null,
    asset: null,
    error: null,
    ...over,
  };
}

/** A JSON answer. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): ScriptedAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}
