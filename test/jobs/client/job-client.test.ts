import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobApiError } from '../../../src/jobs/client/job-api-error.ts';
import { JobClient, type JobClientOptions } from '../../../src/jobs/client/job-client.ts';
import type { ApiJob } from '../../../src/jobs/client/parse-job.ts';
import { discPng, startImageServer, startTestService, waitForJob, type TestService } from '../helpers.ts';
import { jobJson, json, scriptedApi } from '../../support/scripted-server.ts';

const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const quick = { retries: 2, backoff: { initialMs: 1, maxMs: 5, factor: 2 } };

/** The error a call rejects with. */
async function failure(call: Promise<unknown>): Promise<JobApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JobApiError);
  return error as JobApiError;
}

describe('new JobClient', () => {
  it('takes the API origin with or without /v1 and a trailing slash', () => {
    expect(new JobClient({ baseUrl: 'http://127.0.0.1:8787/v1/', apiKey: 'k' }).baseUrl).toBe('http://127.0.0.1:8787');
    expect(new JobClient({ baseUrl: 'http://127.0.0.1:8787//', apiKey: 'k' }).baseUrl).toBe('http://127.0.0.1:8787');
    expect(new JobClient({ baseUrl: 'https://jobs.example.org/api', apiKey: 'k' }).jobUrl('a b')).toBe('https://jobs.example.org/api/v1/jobs/a%20b');
  });

  it('refuses what is not an absolute http(s) URL', () => {
    expect(() => new JobClient({ baseUrl: 'jobs.example.org', apiKey: 'k' })).toThrow('the job API URL "jobs.example.org" is not an absolute URL');
    expect(() => new JobClient({ baseUrl: 'ftp://jobs.example.org', apiKey: 'k' })).toThrow('the job API URL "ftp://jobs.example.org" must use http or https');
  });
});

describe('JobClient against the reference service', () => {
  let svc: TestService;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let png: Uint8Array;
  let client: JobClient;
  beforeAll(async () => {
    png = await discPng();
    images = await startImageServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png)));
    svc = await startTestService();
    client = new JobClient({ baseUrl: `${svc.url}/v1`, apiKey: svc.key });
  });
  afterAll(async () => {
    await svc?.stop();
    await images?.close();
  });

  it('lists the models', async () => {
    expect((await client.listModels()).map((m) => [m.id, m.output.format])).toEqual([
      ['relief', 'glb'],
      ['silhouette', 'glb'],
      ['card', 'glb'],
      ['lithophane', 'glb'],
      ['points', 'ply'],
    ]);
  });

  it('uploads an image, follows the job and downloads a verified asset', async () => {
    const created = await client.createJob({ model: 'card', image: { bytes: png, filename: 'disc.png' } });
    expect(created).toMatchObject({ status: 'queued', model: 'card' });
    await waitForJob(svc.url, svc.key, created.id);
    const done = await client.getJob(created.id);
    expect(done.status).toBe('succeeded');
    const asset = await client.downloadAsset(done);
    expect(asset.bytes.length).toBe(done.asset!.byte_length);
    expect(asset.sha256).toBe(hex(asset.bytes));
    expect(asset.sha256).toBe(done.asset!.sha256);
    expect(asset.mediaType).toBe('model/gltf-binary');
    expect(new TextDecoder().decode(asset.bytes.subarray(0, 4))).toBe('glTF');
  });

  it('sends an image URL as JSON, and the same Idempotency-Key gives the same job', async () => {
    const request = { model: 'relief', imageUrl: `${images.url}/disc.png`, idempotencyKey: 'once-only' };
    const first = await client.createJob(request);
    const again = await client.createJob(request);
    expect(again.id).toBe(first.id);
    const other = await failure(client.createJob({ ...request, model: 'card' }));
    expect(other).toMatchObject({ kind: 'http', status: 422, code: 'idempotency_key_reused' });
  });

  it('explains a refused key, and says what the API answered for an unknown job, without retrying either', async () => {
    const wrong = new JobClient({ baseUrl: svc.url, apiKey: 'aso_sk_wrong', ...quick });
    const refused = await failure(wrong.listModels());
    expect(refused).toMatchObject({ kind: 'http', status: 401 });
    expect(refused.message).toMatch(/^the job API refused the API key \(401: .+\); set ASO_API_KEY to a valid key for this API/);
    const missing = await failure(client.getJob('no-such-job'));
    expect(missing).toMatchObject({ kind: 'http', status: 404, code: 'job_not_found' });
    expect(missing.message).toMatch(/^GET \/v1\/jobs\/no-such-job answered 404 \(job_not_found: /);
  });
});

describe('JobClient against an API that misbehaves', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  async function api(answer: Parameters<typeof scriptedApi>[0]) {
    const server = await scriptedApi(answer);
    servers.push(server);
    return server;
  }
  const clientOf = (url: string, more: Partial<JobClientOptions> = {}) => new JobClient({ baseUrl: url, apiKey: 'secret-key', ...quick, ...more });

  it('retries 5xx and 429, honouring Retry-After, and tells onRetry', async () => {
    const server = await api((_r, n) => (n === 1 ? json(503, { error: { code: 'busy', message: 'try later' } }, { 'retry-after': '0' }) : n === 2 ? json(429, {}) : json(200, jobJson())));
    const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
    const job = await clientOf(server.url, { onRetry: (info) => retries.push(info) }).getJob('job-1');
    expect(job.id).toBe('job-1');
    expect(server.requests).toHaveLength(3);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 0, reason: 'GET /v1/jobs/job-1 answered 503 (busy: try later)' },
      { attempt: 2, delayMs: expect.any(Number), reason: 'GET /v1/jobs/job-1 answered 429 ({})' },
    ]);
    expect(retries[1]!.delayMs).toBeLessThanOrEqual(quick.backoff.maxMs);
  });

  it('caps a long Retry-After', async () => {
    const server = await api((_r, n) => (n === 1 ? json(503, {}, { 'retry-after': '3600' }) : json(200, jobJson())));
    const delays: number[] = [];
    await clientOf(server.url, { maxRetryAfterMs: 10, onRetry: (i) => delays.push(i.delayMs) }).getJob('job-1');
    expect(delays).toEqual([10]);
  });

  it('gives up after the retries, with the status, the code and the number of attempts', async () => {
    const server = await api(() => json(500, { error: { code: 'internal', message: 'disk full' } }));
    const error = await failure(clientOf(server.url).getJob('job-1'));
    expect(error).toMatchObject({ kind: 'http', status: 500, code: 'internal' });
    expect(error.message).toBe('GET /v1/jobs/job-1 answered 500 (internal: disk full); gave up after 3 attempts');
    expect(server.requests).toHaveLength(3);
    const once = await failure(clientOf(server.url, { retries: 0 }).getJob('job-1'));
    expect(once.message).toMatch(/; gave up after 1 attempt$/);
  });

  it('retries an answer that is not JSON or not a job, then names it as garbage', async () => {
    const html = await api(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>\n  <body>Login  required</body>\n</html>' }));
    const notJson = await failure(clientOf(html.url).getJob('job-1'));
    expect(notJson).toMatchObject({ kind: 'garbage' });
    expect(notJson.message).toBe('GET /v1/jobs/job-1 answered 200 with a body that is not JSON: <html> <body>Login required</body> </html>; gave up after 3 attempts');
    const wrongShape = await api(() => json(200, jobJson({ status: 'exploded' })));
    const garbage = await failure(clientOf(wrongShape.url).getJob('job-1'));
    expect(garbage.message).toBe('GET /v1/jobs/job-1 answered with job job-1 that is not as documented: field "status" must be one of queued, running, succeeded, failed, canceled; gave up after 3 attempts');
  });

  it('sends the key as a bearer token, and an upload as multipart with its file name', async () => {
    const server = await api(() => json(202, jobJson()));
    await clientOf(server.url).createJob({ model: 'relief', image: { bytes: Uint8Array.from([1, 2, 3]), filename: 'photo.jpg' }, idempotencyKey: 'k-1' });
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe('Bearer secret-key');
    expect(request!.headers['idempotency-key']).toBe('k-1');
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body.toString('latin1')).toMatch(/name="image"; filename="photo.jpg"\r\n[\s\S]*\r\n\x01\x02\x03\r\n/);
  });

  it('names an API that cannot be reached, and one that does not answer in time', async () => {
    const gone = await api(() => json(200, {}));
    await gone.close();
    const unreachable = await failure(clientOf(gone.url, { retries: 1 }).listModels());
    expect(unreachable.kind).toBe('network');
    expect(unreachable.message).toBe(`cannot reach the job API at ${gone.url} (ECONNREFUSED); gave up after 2 attempts`);
    const silent = await api(() => 'hang');
    const slow = await failure(clientOf(silent.url, { retries: 0, requestTimeoutMs: 50 }).listModels());
    expect(slow).toMatchObject({ kind: 'network', message: 'no answer for the model list within 50 ms; gave up after 1 attempt' });
  });

  it('stops at once when aborted, while a request runs or between attempts', async () => {
    const silent = await api(() => 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const retried: unknown[] = [];
    const call = clientOf(silent.url, { signal: controller.signal, onRetry: (info) => retried.push(info) }).getJob('job-1');
    expect(await failure(call)).toMatchObject({ kind: 'aborted', message: 'interrupted while waiting for job job-1' });
    expect(retried).toEqual([]);
    const busy = await api(() => json(503, {}, { 'retry-after': '60' }));
    const later = new AbortController();
    setTimeout(() => later.abort(), 50);
    const start = Date.now();
    expect(await failure(clientOf(busy.url, { signal: later.signal }).getJob('job-1'))).toMatchObject({ kind: 'aborted' });
    expect(Date.now() - start).toBeLessThan(10_000);
    expect(await failure(clientOf(busy.url, { signal: AbortSignal.abort() }).getJob('job-1'))).toMatchObject({ kind: 'aborted' });
  });

  describe('downloadAsset', () => {
    const bytes = new TextEncoder().encode('glTF bytes of the asset');
    const sha = hex(bytes);
    const succeeded = (url: string, over: Partial<ApiJob> = {}): ApiJob => ({
      id: 'job-1',
      status: 'succeeded',
      model: 'relief',
      model_version: '1.0.0',
      progress: 100,
      created_at: null,
      updated_at: null,
      download_url: `${url}/v1/jobs/job-1/asset`,
      asset: { format: 'glb', media_type: 'model/gltf-binary', byte_length: bytes.length, sha256: sha },
      error: null,
      ...over,
    });
    const serving = (headers: Record<string, string>, body: Uint8Array = bytes) => api(() => ({ status: 200, headers: { 'content-type': 'model/gltf-binary', ...headers }, body }));

    it('returns bytes that match the header and the job', async () => {
      const server = await serving({ 'x-content-sha256': sha.toUpperCase() });
      const asset = await clientOf(server.url).downloadAsset(succeeded(server.url));
      expect(asset).toEqual({ bytes, sha256: sha, mediaType: 'model/gltf-binary' });
    });

    it('resolves a relative download_url against the API', async () => {
      const server = await serving({});
      const asset = await clientOf(server.url).downloadAsset(succeeded(server.url, { download_url: '/v1/jobs/job-1/asset' }));
      expect(asset.sha256).toBe(sha);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer secret-key');
    });

    it('sends the key only to the API origin, not to a storage host', async () => {
      const storage = await serving({});
      const server = await api(() => json(404, {}));
      await clientOf(server.url).downloadAsset(succeeded(storage.url));
      expect(storage.requests[0]!.headers.authorization).toBeUndefined();
    });

    it('refuses a download_url that is not http(s) without reading it', async () => {
      const error = await failure(clientOf('http://127.0.0.1:9').downloadAsset(succeeded('http://x', { download_url: 'file:///etc/passwd' })));
      expect(error).toMatchObject({ kind: 'garbage', message: 'job job-1: download_url "file:///etc/passwd" uses file; an asset is downloaded over http or https only' });
    });

    it('refuses a job that has no asset yet', async () => {
      const error = await failure(clientOf('http://127.0.0.1:9').downloadAsset(succeeded('http://x', { status: 'running', download_url: null })));
      expect(error).toMatchObject({ kind: 'garbage', message: 'job job-1 is running and has no download_url' });
    });

    it('refuses bytes whose hash differs from the header, or from the job', async () => {
      const header = await serving({ 'x-content-sha256': '0'.repeat(64) });
      expect((await failure(clientOf(header.url).downloadAsset(succeeded(header.url)))).message).toBe(
        `the asset of job job-1 does not match its declared SHA-256: expected ${'0'.repeat(64)}, actual ${sha}`,
      );
      const plain = await serving({});
      const job = succeeded(plain.url);
      const wrong = { ...job, asset: { ...job.asset!, sha256: 'f'.repeat(64) } };
      expect(await failure(clientOf(plain.url).downloadAsset(wrong))).toMatchObject({ kind: 'integrity' });
      const both = await serving({ 'x-content-sha256': sha });
      const mismatch = await failure(clientOf(both.url).downloadAsset({ ...wrong, download_url: succeeded(both.url).download_url }));
      expect(mismatch.message).toBe(`the asset of job job-1 does not match the job's asset.sha256: expected ${'f'.repeat(64)}, actual ${sha}`);
    });

    it('refuses bytes of another length than the job declares, and an asset with no hash to check', async () => {
      const server = await serving({ 'x-content-sha256': sha });
      const job = succeeded(server.url);
      const longer = await failure(clientOf(server.url).downloadAsset({ ...job, asset: { ...job.asset!, byte_length: 999 } }));
      expect(longer.message).toBe(`the asset of job job-1 has ${bytes.length} bytes; the job declares asset.byte_length 999`);
      const bare = await serving({});
      const unhashed = await failure(clientOf(bare.url).downloadAsset({ ...succeeded(bare.url), asset: null }));
      expect(unhashed.message).toBe('the asset of job job-1 came without an X-Content-SHA256 header, and the job declares no asset.sha256');
    });

    it('refuses an asset over the size limit: from its Content-Length, or once the bytes run past it', async () => {
      const declared = await serving({ 'x-content-sha256': sha, 'content-length': String(bytes.length) });
      const error = await failure(clientOf(declared.url, { maxAssetBytes: 5 }).downloadAsset(succeeded(declared.url)));
      expect(error).toMatchObject({ kind: 'integrity', message: `the asset of job job-1 has ${bytes.length} bytes (Content-Length), over the limit of 5 bytes (--max-asset-mb raises the limit)` });
      const chunked = await serving({ 'x-content-sha256': sha });
      const streamed = await failure(clientOf(chunked.url, { maxAssetBytes: 5 }).downloadAsset(succeeded(chunked.url)));
      expect(streamed).toMatchObject({ kind: 'integrity', message: 'the asset of job job-1 passed the limit of 5 bytes while downloading and was stopped there (--max-asset-mb raises the limit)' });
      expect(chunked.requests).toHaveLength(1);
      const exact = await serving({ 'x-content-sha256': sha });
      expect((await clientOf(exact.url, { maxAssetBytes: bytes.length }).downloadAsset(succeeded(exact.url))).bytes).toEqual(bytes);
    });

    it('retries a download that fails with 5xx', async () => {
      const server = await api((_r, n) => (n === 1 ? json(502, {}) : { status: 200, body: bytes }));
      expect((await clientOf(server.url).downloadAsset(succeeded(server.url))).sha256).toBe(sha);
      expect(server.requests).toHaveLength(2);
    });
  });
});
