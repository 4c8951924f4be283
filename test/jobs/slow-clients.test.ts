/**
 * The job service under slow and greedy clients: headers or a body trickled in are cut off at their time limit, one
 * address holds at most its cap of connections, and a process with few file descriptors stays ready under both.
 */
import { readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/jobs/service/cli.ts';
import { dataPaths } from '../../src/jobs/store/data-dir.ts';
import { discPng, postUpload, startTestService, tempDir, waitForJob, type TestService } from './helpers.ts';
import { startJobsProcess } from './processes.ts';

/** Where the slow clients come from: another loopback address than the one the checks use, so that a cap on theirs leaves ours alone. */
const SLOW_ADDRESS = '127.0.0.2';

/** A raw connection to the service and what it has received. */
interface RawClient {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
  isClosed(): boolean;
}

function rawClient(url: string, localAddress = SLOW_ADDRESS): RawClient {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  let text = '';
  let done = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => (done = true));
  return { socket, received: () => text, closed, isClosed: () => done };
}

/** Writes `first`, then `next(i)` every `everyMs` until the socket closes. */
function trickle(client: RawClient, first: string, next: (i: number) => string, everyMs: number): void {
  client.socket.once('connect', () => client.socket.write(first));
  let i = 0;
  const timer = setInterval(() => {
    if (client.socket.writable && client.socket.readyState === 'open') client.socket.write(next(i++));
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
}

/** Resolves when `promise` does; fails the test, naming `what`, when it has not after `ms` (a bound on waiting, not a measurement). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} had not happened after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it is true (at most `attempts` times, 50 ms apart). */
async function until(check: () => boolean | Promise<boolean>, what: string, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened`);
}

/** The first line of the answer to a request written on an open connection. */
async function statusLineOf(client: RawClient, request: string): Promise<string> {
  const before = client.received().length;
  client.socket.write(request);
  await until(() => client.received().indexOf('\r\n', before) > 0, 'an answer');
  return client.received().slice(before).split('\r\n')[0]!;
}

const TIMEOUT_BODY = { error: { code: 'request_timeout', message: 'the request did not arrive within the time limit; send it without pauses' } };

/** The status and JSON body of the one answer a connection received. */
function answer(client: RawClient): { status: string | undefined; body: unknown } {
  const [head = '', body = ''] = client.received().split('\r\n\r\n');
  return { status: /^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1], body: body ? JSON.parse(body) : undefined };
}

async function readyStatus(url: string): Promise<number | string> {
  return fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.status,
    (err: Error) => `no answer: ${err.message}`,
  );
}

describe('slow clients under low time limits', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ processJobs: false, connections: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnectionsPerAddress: 0 } });
  });
  afterAll(() => svc.stop());

  it('closes connections whose headers trickle in, and stays ready meanwhile', async () => {
    const clients = Array.from({ length: 20 }, () => rawClient(svc.url));
    for (const c of clients) trickle(c, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n', (i) => `X-Slow-${i}: still here\r\n`, 200);
    expect(await readyStatus(svc.url)).toBe(200);
    await within(Promise.all(clients.map((c) => c.closed)), 20_000, 'closing the 20 connections whose headers trickle in');
    // A request cut off in its headers is answered 408, in the API's error format, before its connection is closed.
    for (const c of clients) expect(answer(c)).toEqual({ status: '408', body: TIMEOUT_BODY });
  });

  it('answers headers larger than the limit with 431 in the API’s error format', async () => {
    const client = rawClient(svc.url, '127.0.0.1');
    client.socket.write(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Large: ${'x'.repeat(20_000)}\r\n\r\n`);
    await within(client.closed, 20_000, 'closing the connection with large headers');
    expect(answer(client)).toEqual({ status: '431', body: { error: { code: 'headers_too_large', message: 'the request headers are larger than the limit' } } });
  });

  it('closes an upload whose body a key holder trickles one byte at a time, and frees its upload slot and file', async () => {
    const client = rawClient(svc.url);
    const body = '--b0\r\nContent-Disposition: form-data; name="model"\r\n\r\ncard\r\n--b0\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
    const head = `POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${svc.key}\r\nContent-Type: multipart/form-data; boundary=b0\r\nContent-Length: 100000\r\n\r\n${body}`;
    trickle(client, head, () => 'x', 200);
    await within(client.closed, 20_000, 'closing the upload trickled in');
    expect(answer(client)).toEqual({ status: '408', body: TIMEOUT_BODY });
    await until(async () => /^aso_process_uploads_in_progress 0$/m.test(await (await fetch(`${svc.url}/metrics`)).text()), 'the upload slot coming free');
    expect((await readdir(dataPaths(svc.dataDir).blobs)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await readyStatus(svc.url)).toBe(200);
  });
});

describe('the cap on connections per address', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ processJobs: false, connections: { maxConnectionsPerAddress: 4, headersTimeoutMs: 60_000 } });
  });
  afterAll(() => svc.stop());

  it('closes connections beyond the cap at once, serves those within it and other addresses', async () => {
    const clients = Array.from({ length: 10 }, () => rawClient(svc.url));
    await until(() => clients.filter((c) => c.isClosed()).length === 6, 'six of ten connections from one address being closed');
    const open = clients.filter((c) => !c.isClosed());
    expect(open).toHaveLength(4);
    for (const c of open) expect(await statusLineOf(c, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toBe('HTTP/1.1 200 OK');
    expect(await readyStatus(svc.url)).toBe(200);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/^aso_process_connections_refused_total 6$/m);
    // A connection that closes gives its place to a new one, once the service has seen it close.
    open[0]!.socket.destroy();
    let again: RawClient | undefined;
    for (let attempt = 0; attempt < 50 && !again; attempt++) {
      const c = rawClient(svc.url);
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await until(() => c.isClosed() || c.received().includes('\r\n'), 'an answer or a close');
      if (!c.isClosed()) again = c;
    }
    expect(again?.received().split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    for (const c of [...open, again!]) c.socket.destroy();
  });
});

describe('a service with few file descriptors, under slow clients, with its default limits', () => {
  it('stays ready, finishes and stores a job, and closes every slow connection', async () => {
    const dir = await tempDir();
    const out: string[] = [];
    await runJobsCli(['keys', 'create', '--name', 'publisher', '--data', dir.path], { out: (l) => out.push(l), err: () => {} });
    const key = out.at(-1)!;
    const proc = await startJobsProcess(['--port', '0', '--data', dir.path, '--concurrency', '1'], { fileLimit: 96 });
    const clients: RawClient[] = [];
    try {
      // Far more slow connections than the process has file descriptors.
      for (let i = 0; i < 200; i++) {
        const c = rawClient(proc.url);
        trickle(c, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n', (n) => `X-Slow-${n}: still here\r\n`, 500);
        clients.push(c);
      }
      await until(() => clients.filter((c) => c.isClosed()).length >= 100, 'the connections beyond the cap being closed');
      expect(await readyStatus(proc.url)).toBe(200);
      const created = await postUpload(proc.url, key, 'card', await discPng());
      expect(created.status).toBe(202);
      const job = await waitForJob(proc.url, key, ((await created.json()) as { id: string }).id);
      expect(job.status).toBe('succeeded');
      expect((await fetch(`${proc.url}/v1/jobs/${job.id}/asset`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      // The connections within the cap go at the header time limit (10 s by default).
      await within(Promise.all(clients.map((c) => c.closed)), 40_000, 'closing all 200 slow connections');
      expect(await readyStatus(proc.url)).toBe(200);
    } finally {
      for (const c of clients) c.socket.destroy();
      await proc.stop();
      await dir.remove();
    }
  });
});
