/** The page's verified bytes over a real HTTP server on loopback: one download per hash, and only bytes that passed. */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Representation } from '@aso-registry/core/format/types';
import { verifiedBytes } from '../../src/viewer/verified-bytes.ts';

const good = new TextEncoder().encode('preview image bytes');
const sri = (b: Uint8Array): string => `sha256-${createHash('sha256').update(b).digest('base64')}`;
const rep = (over: Partial<Representation> = {}): Representation => ({
  id: 'preview',
  type: 'image',
  format: 'png',
  mediaType: 'image/png',
  url: 'https://registry.example.org/p.png',
  byteLength: good.length,
  hash: sri(good),
  ...over,
});

describe('verifiedBytes', () => {
  let server: Server;
  let origin: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(req.url === '/bad.png' ? 'other bytes entirely' : good);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('downloads and verifies once, however many ask at the same time', async () => {
    const store = verifiedBytes();
    const [a, b] = await Promise.all([store.load(rep(), `${origin}/good.png`), store.load(rep(), `${origin}/good.png`)]);
    expect(a).toEqual(good);
    expect(b).toBe(a);
    expect(await store.get(rep())).toBe(a);
    expect(hits.filter((h) => h === '/good.png')).toHaveLength(1);
  });

  it('gives nothing for bytes that fail their checks, or a server that cannot be reached', async () => {
    const store = verifiedBytes();
    expect(await store.load(rep(), `${origin}/bad.png`)).toBeUndefined();
    expect(await store.load(rep({ hash: sri(new Uint8Array([1])) }), 'http://127.0.0.1:1/none.png')).toBeUndefined();
  });

  it('keeps what an inspection verified, without downloading', async () => {
    const store = verifiedBytes();
    const before = hits.length;
    store.remember(rep(), good);
    expect(await store.load(rep(), `${origin}/good.png`)).toBe(good);
    expect(hits.length).toBe(before);
  });
});
