/** The HTTP every hosted adapter shares, against scripted servers: retries, waits, the vendor's words, bounded downloads. */
import { afterEach, describe, expect, it } from 'vitest';
import { JobApiError } from '../../../src/jobs/client/job-api-error.ts';
import { NotDocumented, VendorHttp, type RetryInfo, type VendorHttpOptions } from '../../../src/jobs/providers/vendor-http.ts';
import { json, scriptedApi } from '../../support/scripted-server.ts';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof scriptedApi>): ReturnType<typeof scriptedApi> {
  const server = await scriptedApi(...args);
  servers.push(server);
  return server;
}

function http(baseUrl: string, more: Partial<VendorHttpOptions> = {}): { http: VendorHttp; retries: RetryInfo[] } {
  const retries: RetryInfo[] = [];
  const client = new VendorHttp({
    vendor: 'acme',
    baseUrl,
    auth: { authorization: 'Bearer secret-key' },
    keyVariable: 'ACME_KEY',
    errorText: (body) => ((body as { message?: unknown })?.message as string | undefined) ?? undefined,
    retries: 2,
    backoff: { initialMs: 5, maxMs: 20, factor: 2 },
    maxRetryAfterMs: 15,
    onRetry: (info) => retries.push(info),
    ...more,
  });
  return { http: client, retries };
}

async function thrown(promise: Promise<unknown>): Promise<JobApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JobApiError);
    return error as JobApiError;
  }
  throw new Error('expected a JobApiError');
}

describe('VendorHttp', () => {
  it('retries 5xx with backoff and a 429 as long as it asks (capped), then answers', async () => {
    const server = await serve((_r, n) => (n === 1 ? json(503, { message: 'busy' }) : n === 2 ? json(429, { message: 'slow down' }, { 'retry-after': '9' }) : json(200, { ok: true })));
    const { http: client, retries } = http(server.url);
    expect(await client.json('GET', '/thing', {}, (a) => a.body)).toEqual({ ok: true });
    expect(retries.map((r) => r.reason)).toEqual(['acme: GET /thing answered 503 (busy)', 'acme: GET /thing answered 429 (slow down)']);
    expect(retries[0]!.askedMs).toBeUndefined();
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(5);
    expect(retries[1]).toMatchObject({ askedMs: 9000, delayMs: 15 });
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer secret-key')).toBe(true);
  });

  it('gives up after the retries, and fails at once on a 4xx in the vendor\'s words (401 naming the key variable)', async () => {
    const down = await serve(() => json(502, { message: 'bad gateway' }));
    const gaveUp = await thrown(http(down.url).http.json('GET', '/x', {}, (a) => a));
    expect(gaveUp.message).toBe('acme: GET /x answered 502 (bad gateway); gave up after 3 attempts');
    expect(down.requests).toHaveLength(3);

    const refused = await serve(() => json(400, { message: 'target_polycount is too small' }));
    const bad = await thrown(http(refused.url).http.json('POST', '/tasks', { json: { a: 1 } }, (a) => a));
    expect(bad).toMatchObject({ kind: 'http', status: 400, message: 'acme: POST /tasks answered 400 (target_polycount is too small)' });
    expect(refused.requests).toHaveLength(1);

    const denied = await serve(() => json(401, { message: 'Invalid API key.' }));
    expect((await thrown(http(denied.url).http.json('GET', '/x', {}, (a) => a))).message).toBe(
      'acme refused the key in ACME_KEY (401: Invalid API key.); check that ACME_KEY holds a valid acme API key',
    );
  });

  it('retries an answer that is not JSON or not as documented, then says what was wrong', async () => {
    const garbage = await serve((_r, n) => (n === 1 ? { status: 200, body: '<html>oops</html>' } : json(200, { id: 42 })));
    const error = await thrown(
      http(garbage.url, { retries: 1 }).http.json('GET', '/task', {}, (a) => {
        if (typeof (a.body as { id?: unknown }).id !== 'string') throw new NotDocumented('a task needs a string "id"');
        return a.body;
      }),
    );
    expect(error).toMatchObject({ kind: 'garbage', message: 'acme: GET /task answered 200 with a body that is not as documented: a task needs a string "id"; gave up after 2 attempts' });
  });

  it('downloads within the size limit, never sending the key to another origin', async () => {
    const api = await serve(() => json(200, {}));
    const storage = await serve(() => ({ status: 200, headers: { 'content-type': 'model/gltf-binary', 'content-length': '100' }, body: new Uint8Array(100).fill(7) }));
    const { http: client } = http(api.url, { maxAssetBytes: 100 });
    const file = await client.download(`${storage.url}/result.glb?Signature=abc`, 'the GLB of acme task 1');
    expect(file.bytes).toEqual(new Uint8Array(100).fill(7));
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(storage.requests[0]!.headers.authorization).toBeUndefined();

    const small = http(api.url, { maxAssetBytes: 99 }).http;
    const error = await thrown(small.download(`${storage.url}/result.glb?Signature=abc`, 'the GLB of acme task 1'));
    expect(error).toMatchObject({ kind: 'integrity', message: 'the GLB of acme task 1 has 100 bytes (Content-Length), over the limit of 99 bytes (--max-asset-mb raises the limit)' });
    expect(error.message).not.toContain('Signature');

    // Without a Content-Length, the stream is stopped where it passes the limit.
    const chunked = await serve(() => ({ status: 200, body: new Uint8Array(100).fill(7) }));
    const stopped = await thrown(small.download(`${chunked.url}/result.glb`, 'the GLB of acme task 2'));
    expect(stopped.message).toBe('the GLB of acme task 2 passed the limit of 99 bytes while downloading and was stopped there (--max-asset-mb raises the limit)');
  });

  it('an aborted signal stops at once, naming what it waited for', async () => {
    const controller = new AbortController();
    // Ctrl-C arrives while the request waits for its answer.
    const server = await serve(() => {
      controller.abort(new Error('SIGINT'));
      return 'hang';
    });
    const pending = http(server.url, { signal: controller.signal }).http.json('GET', '/slow', {}, (a) => a);
    expect(await thrown(pending)).toMatchObject({ kind: 'aborted', message: 'interrupted while waiting for acme: GET /slow' });
  });
});
