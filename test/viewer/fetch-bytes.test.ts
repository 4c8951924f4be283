import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBytes, overflowText } from '../../src/viewer/fetch-bytes.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let origin = '';
let handler: Handler = (_req, res) => res.end();
const server = createServer((req, res) => handler(req, res));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const bytes = (n: number, fill = 7): Uint8Array => new Uint8Array(n).fill(fill);

describe('fetchBytes', () => {
  it('returns the body and reports progress up to the declared length', async () => {
    handler = (_req, res) => {
      res.write(bytes(1000, 1));
      res.end(bytes(500, 2));
    };
    const seen: number[] = [];
    const result = await fetchBytes(`${origin}/ok`, 1500, { onProgress: (n) => seen.push(n) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.bytes.byteLength).toBe(1500);
    expect(result.bytes[0]).toBe(1);
    expect(result.bytes[1499]).toBe(2);
    expect(seen.at(-1)).toBe(1500);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('stops at the first chunk past the declared length, without waiting for the rest', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    handler = (req, res) => {
      res.on('close', closed);
      res.write(bytes(120));
      // The response never ends: only a client that stops reading returns.
    };
    const result = await fetchBytes(`${origin}/endless`, 100);
    expect(result).toEqual({ ok: false, reason: 'byte-length', detail: overflowText(100, 120), received: 120 });
    expect(overflowText(100, 120)).toBe('byte length mismatch: expected 100, got more than 100 (download stopped after 120 bytes)');
    await serverSawClose;
  });

  it('returns a short body as received, for the length check to refuse', async () => {
    handler = (_req, res) => res.end(bytes(90));
    const result = await fetchBytes(`${origin}/short`, 100);
    expect(result.ok && result.bytes.byteLength).toBe(90);
  });

  it('names the URL and the status of an HTTP error', async () => {
    handler = (_req, res) => res.writeHead(404).end('not here');
    const result = await fetchBytes(`${origin}/missing.glb`, 10);
    expect(result).toEqual({ ok: false, reason: 'fetch', detail: `could not fetch ${origin}/missing.glb: HTTP 404`, received: 0 });
  });

  it('names the URL when nothing answers', async () => {
    const closedServer = createServer();
    await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closedServer.address() as AddressInfo).port}/x.gltf`;
    await new Promise((resolve) => closedServer.close(resolve));
    const result = await fetchBytes(url, 10);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).toContain(`could not fetch ${url}`);
  });

  it('rejects when aborted', async () => {
    handler = (_req, res) => res.write(bytes(10));
    const controller = new AbortController();
    const pending = fetchBytes(`${origin}/slow`, 100, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pending).rejects.toThrow();
  });
});
