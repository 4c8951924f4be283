import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateBytes } from 'gltf-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { sql } from '../support/postgres.ts';
import { authed, BACKENDS, discPng, gradientJpeg, parsePly, postJson, postUpload, startImageServer, startTestService, waitForJob, type TestService } from './helpers.ts';

type ErrorBody = { error: { code: string; message: string } };

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(5);
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return body;
}

describe.each(BACKENDS)('the job API over HTTP (%s)', (backend) => {
  let svc: TestService;
  let png: Uint8Array;
  let images: Awaited<ReturnType<typeof startImageServer>>;

  beforeAll(async () => {
    svc = await startTestService({ backend });
    png = await discPng();
    const jpeg = await gradientJpeg();
    images = await startImageServer((req, res) => {
      if (req.url === '/disc.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/gradient.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
      else if (req.url === '/moved') res.writeHead(302, { location: '/disc.png' }).end();
      else if (req.url === '/to-private') res.writeHead(302, { location: 'http://10.1.2.3/x.png' }).end();
      else res.writeHead(404).end('missing');
    });
  });
  afterAll(async () => {
    await images.close();
    await svc.stop();
  });

  it('GET /v1/models lists the catalog of five, and says they are image heuristics, not learned models', async () => {
    const response = await fetch(`${svc.url}/v1/models`, authed(svc.key));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { note: string; data: Array<{ id: string; version: string; method: string; learned: boolean; output: { format: string; media_type: string } }> };
    expect(body.data.map((m) => m.id)).toEqual(['relief', 'silhouette', 'card', 'lithophane', 'points']);
    expect(body.data.map((m) => m.method)).toEqual([
      'image heuristic: a luminance height field',
      'image heuristic: an extruded outline',
      'image heuristic: a card',
      'image heuristic: a lithophane',
      'image heuristic: a point cloud',
    ]);
    expect(body.data.every((m) => m.learned === false)).toBe(true);
    expect(body.note).toMatch(/^The built-in models are image heuristics .* None is a learned model .*npm run submit -- --provider meshy\|tripo\|fal\|replicate/);
    expect(body.data[4]!.output).toEqual({ type: 'point-cloud', format: 'ply', media_type: 'application/octet-stream' });
    expect((await fetch(`${svc.url}/v1/models/card`, authed(svc.key))).status).toBe(200);
    await expectError(await fetch(`${svc.url}/v1/models/nope`, authed(svc.key)), 404, 'model_not_found');
  });

  it('every model: upload -> 202 queued -> succeeded -> download with length and SHA-256', async () => {
    const created = await Promise.all(
      ['relief', 'silhouette', 'card', 'lithophane', 'points'].map(async (model) => {
        const response = await postUpload(svc.url, svc.key, model, png);
        expect(response.status).toBe(202);
        const job = (await response.json()) as JobDocument;
        expect(job).toMatchObject({ status: 'queued', model, progress: 0, download_url: null, error: null });
        expect(response.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
        return job;
      }),
    );
    for (const { id, model } of created) {
      const job = await waitForJob(svc.url, svc.key, id);
      expect(job.status).toBe('succeeded');
      expect(job.progress).toBe(100);
      expect(job.download_url).toBe(`${svc.url}/v1/jobs/${id}/asset`);
      expect(Date.parse(job.updated_at)).toBeGreaterThanOrEqual(Date.parse(job.created_at));
      const download = await fetch(job.download_url!, authed(svc.key));
      expect(download.status).toBe(200);
      const bytes = new Uint8Array(await download.arrayBuffer());
      const hex = createHash('sha256').update(bytes).digest('hex');
      expect(download.headers.get('content-length')).toBe(String(bytes.length));
      expect(download.headers.get('x-content-sha256')).toBe(hex);
      expect(download.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(hex, 'hex').toString('base64')}:`);
      expect(job.asset).toEqual({ format: model === 'points' ? 'ply' : 'glb', media_type: model === 'points' ? 'application/octet-stream' : 'model/gltf-binary', byte_length: bytes.length, sha256: hex });
      if (model === 'points') expect(parsePly(bytes).count).toBe(64 * 48);
      else expect((await validateBytes(bytes)).issues.numErrors).toBe(0);
      const again = await fetch(job.download_url!, authed(svc.key, { headers: { 'if-none-match': `"${hex}"` } }));
      expect(again.status).toBe(304);
    }
  });

  it('JSON with image_url: fetched (through a redirect), the same bytes as an upload of the same image', async () => {
    const byUrl = await postJson(svc.url, svc.key, { model: 'card', image_url: `${images.url}/moved` });
    expect(byUrl.status).toBe(202);
    const viaUrl = await waitForJob(svc.url, svc.key, ((await byUrl.json()) as JobDocument).id);
    const viaUpload = await waitForJob(svc.url, svc.key, ((await (await postUpload(svc.url, svc.key, 'card', png)).json()) as JobDocument).id);
    expect(viaUrl.status).toBe('succeeded');
    expect(viaUrl.asset!.sha256).toBe(viaUpload.asset!.sha256);
  });

  it('a failed fetch or an unreadable image fails the job with a reason', async () => {
    const missing = await waitForJob(svc.url, svc.key, ((await (await postJson(svc.url, svc.key, { model: 'card', image_url: `${images.url}/nothing.png` })).json()) as JobDocument).id);
    expect(missing).toMatchObject({ status: 'failed', download_url: null, error: { code: 'image_fetch_failed' } });
    expect(missing.error!.message).toContain('404');
    const redirected = await waitForJob(svc.url, svc.key, ((await (await postJson(svc.url, svc.key, { model: 'card', image_url: `${images.url}/to-private` })).json()) as JobDocument).id);
    expect(redirected).toMatchObject({ status: 'failed', error: { code: 'image_url_refused' } });
    await expectError(await fetch(`${svc.url}/v1/jobs/${missing.id}/asset`, authed(svc.key)), 404, 'asset_not_ready');
  });

  it('401 without a key, with a malformed header, with an unknown key', async () => {
    const none = await fetch(`${svc.url}/v1/models`);
    await expectError(none, 401, 'missing_api_key');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectError(await fetch(`${svc.url}/v1/jobs`, { headers: { authorization: `Basic ${svc.key}` } }), 401, 'invalid_authorization');
    await expectError(await fetch(`${svc.url}/v1/jobs`, authed('aso_sk_' + 'A'.repeat(43))), 401, 'invalid_api_key');
    await expectError(await fetch(`${svc.url}/v1/jobs/x/asset`, authed('nonsense')), 401, 'invalid_api_key');
  });

  it('a key sees only its own jobs: another key gets 404', async () => {
    const other = await svc.service.createKey('other');
    const job = (await (await postUpload(svc.url, svc.key, 'card', png)).json()) as JobDocument;
    await expectError(await fetch(`${svc.url}/v1/jobs/${job.id}`, authed(other)), 404, 'job_not_found');
    await expectError(await fetch(`${svc.url}/v1/jobs/${job.id}/asset`, authed(other)), 404, 'job_not_found');
    await expectError(await fetch(`${svc.url}/v1/jobs/${job.id}/cancel`, authed(other, { method: 'POST' })), 404, 'job_not_found');
    const list = (await (await fetch(`${svc.url}/v1/jobs`, authed(other))).json()) as { data: JobDocument[] };
    expect(list.data).toEqual([]);
    const mine = (await (await fetch(`${svc.url}/v1/jobs?limit=200`, authed(svc.key))).json()) as { data: JobDocument[] };
    expect(mine.data.map((j) => j.id)).toContain(job.id);
    await waitForJob(svc.url, svc.key, job.id);
  });

  it('Idempotency-Key: same key and body -> same job; same key, other body -> 422', async () => {
    const headers = { 'idempotency-key': 'idem-1' };
    const [a, b] = await Promise.all([postUpload(svc.url, svc.key, 'relief', png, headers), postUpload(svc.url, svc.key, 'relief', png, headers)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const [ja, jb] = [(await a.json()) as JobDocument, (await b.json()) as JobDocument];
    expect(jb.id).toBe(ja.id);
    const replay = await postUpload(svc.url, svc.key, 'relief', png, headers);
    expect(((await replay.json()) as JobDocument).id).toBe(ja.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectError(await postUpload(svc.url, svc.key, 'card', png, headers), 422, 'idempotency_key_reused');
    await expectError(await postJson(svc.url, svc.key, { model: 'relief', image_url: `${images.url}/disc.png` }, headers), 422, 'idempotency_key_reused');
    // Keys are per API key: another key may use the same Idempotency-Key for its own job.
    const other = await svc.service.createKey('idem-other');
    const theirs = (await (await postUpload(svc.url, other, 'relief', png, headers)).json()) as JobDocument;
    expect(theirs.id).not.toBe(ja.id);
    await expectError(await postUpload(svc.url, svc.key, 'relief', png, { 'idempotency-key': 'x'.repeat(300) }), 400, 'invalid_idempotency_key');
    await waitForJob(svc.url, svc.key, ja.id);
    await waitForJob(svc.url, other, theirs.id);
  });

  it('400: bad JSON, missing and unknown fields, a bad URL, a bad limit', async () => {
    const raw = (body: string): Promise<Response> => fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    await expectError(await raw('{"model":'), 400, 'invalid_json');
    await expectError(await raw('[1]'), 400, 'invalid_request');
    expect((await expectError(await postJson(svc.url, svc.key, { image_url: 'http://example.com/a.png' }), 400, 'invalid_request')).error.message).toContain('"model"');
    expect((await expectError(await postJson(svc.url, svc.key, { model: 'card' }), 400, 'invalid_request')).error.message).toContain('"image_url"');
    expect((await expectError(await postJson(svc.url, svc.key, { model: 'card', image_url: 'http://a/b.png', seed: 1 }), 400, 'invalid_request')).error.message).toContain('"seed"');
    await expectError(await postJson(svc.url, svc.key, { model: 7, image_url: 'http://a/b.png' }), 400, 'invalid_request');
    await expectError(await postJson(svc.url, svc.key, { model: 'card', image_url: 'file:///etc/passwd' }), 400, 'invalid_image_url');
    await expectError(await postJson(svc.url, svc.key, { model: 'card', image_url: 'not a url' }), 400, 'invalid_image_url');
    const form = new FormData();
    form.set('model', 'card');
    await expectError(await fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', body: form })), 400, 'invalid_request');
    await expectError(await fetch(`${svc.url}/v1/jobs?limit=0`, authed(svc.key)), 400, 'invalid_request');
  });

  it('404: unknown job, unknown route', async () => {
    await expectError(await fetch(`${svc.url}/v1/jobs/00000000-0000-0000-0000-000000000000`, authed(svc.key)), 404, 'job_not_found');
    await expectError(await fetch(`${svc.url}/v1/nothing`, authed(svc.key)), 404, 'not_found');
    await expectError(await fetch(`${svc.url}/nothing`), 404, 'not_found');
  });

  it('415: a body that is neither JSON nor multipart, an upload that is not an image', async () => {
    await expectError(await fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' })), 415, 'unsupported_media_type');
    await expectError(await fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'model=card' })), 415, 'unsupported_media_type');
    await expectError(await postUpload(svc.url, svc.key, 'card', new TextEncoder().encode('<html>not an image</html>')), 415, 'unsupported_image');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>');
    await expectError(await postUpload(svc.url, svc.key, 'card', svg, {}, 'a.svg'), 415, 'unsupported_image');
  });

  it('422: an unknown model, an image URL on a refused address', async () => {
    await expectError(await postUpload(svc.url, svc.key, 'dall-e', png), 422, 'unknown_model');
    for (const host of ['10.0.0.7', '192.168.1.1', '169.254.169.254', '[fe80::1]', '[::ffff:10.0.0.1]', '0.0.0.0']) {
      const body = await expectError(await postJson(svc.url, svc.key, { model: 'card', image_url: `http://${host}/a.png` }), 422, 'image_url_refused');
      expect(body.error.message).toContain('refused');
    }
  });

  it('422: cancel a finished job', async () => {
    const done = await waitForJob(svc.url, svc.key, ((await (await postUpload(svc.url, svc.key, 'card', png)).json()) as JobDocument).id);
    await expectError(await fetch(`${svc.url}/v1/jobs/${done.id}/cancel`, authed(svc.key, { method: 'POST' })), 422, 'job_finished');
  });

  it('413: request body, upload and pixel count over the limits', async () => {
    const small = await startTestService({ backend, limits: { maxImageBytes: 2000, maxImagePixels: 1000 } });
    try {
      await expectError(await postUpload(small.url, small.key, 'card', new Uint8Array(5000)), 413, 'image_too_large');
      const tiny = await discPng(40, 30);
      expect(tiny.length).toBeLessThan(2000);
      const pixels = await expectError(await postUpload(small.url, small.key, 'card', tiny), 413, 'image_too_large');
      expect(pixels.error.message).toContain('1200 pixels');
      await expectError(await postJson(small.url, small.key, { model: 'card', image_url: `http://example.com/${'a'.repeat(70_000)}` }), 413, 'payload_too_large');
      const fetched = await waitForJob(small.url, small.key, ((await (await postJson(small.url, small.key, { model: 'card', image_url: `${images.url}/disc.png` })).json()) as JobDocument).id);
      expect(fetched).toMatchObject({ status: 'failed', error: { code: 'image_too_large' } });
    } finally {
      await small.stop();
    }
  });

  it('a model run over the job time limit fails the job with code timeout', async () => {
    const hasty = await startTestService({ backend, limits: { jobTimeoutMs: 1 } });
    try {
      const job = await waitForJob(hasty.url, hasty.key, ((await (await postUpload(hasty.url, hasty.key, 'relief', png)).json()) as JobDocument).id);
      expect(job).toMatchObject({ status: 'failed', download_url: null, error: { code: 'timeout', message: 'the model ran longer than 1 ms' } });
    } finally {
      await hasty.stop();
    }
  });

  it('429 with Retry-After once a key goes over its rate, other keys unaffected', async () => {
    const limited = await startTestService({ backend, rateLimit: { maxCreates: 2, maxRequests: 5, windowMs: 60_000 }, processJobs: false });
    try {
      expect((await postUpload(limited.url, limited.key, 'card', png)).status).toBe(202);
      expect((await postUpload(limited.url, limited.key, 'card', png)).status).toBe(202);
      const over = await postUpload(limited.url, limited.key, 'card', png);
      await expectError(over, 429, 'rate_limited');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await limited.service.createKey('other');
      expect((await postUpload(limited.url, other, 'card', png)).status).toBe(202);
      for (let i = 0; i < 5; i++) await fetch(`${limited.url}/v1/models`, authed(limited.key));
      const polled = await fetch(`${limited.url}/v1/models`, authed(limited.key));
      await expectError(polled, 429, 'rate_limited');
      expect(Number(polled.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.stop();
    }
  });

  it('operations: /healthz, /readyz names the store it checked, /metrics counts jobs and run times per model', async () => {
    expect(await (await fetch(`${svc.url}/healthz`)).json()).toEqual({ ok: true });
    const ready = await fetch(`${svc.url}/readyz`);
    expect(ready.status).toBe(200);
    const store = backend === 'postgres' ? 'database' : 'job_store';
    expect(await ready.json()).toEqual({ ok: true, checks: { [store]: 'ok', blob_store: 'ok' } });
    await waitForJob(svc.url, svc.key, ((await (await postUpload(svc.url, svc.key, 'card', png)).json()) as JobDocument).id);
    const metrics = await fetch(`${svc.url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(text).toMatch(/^aso_jobs_queue_depth \d+$/m);
    expect(text).toMatch(/^aso_jobs_running \d+$/m);
    expect(text).toMatch(new RegExp(`^aso_process_jobs_running\\{backend="${backend}"\\} \\d+$`, 'm'));
    const succeeded = Number(/^aso_jobs\{status="succeeded"\} (\d+)$/m.exec(text)?.[1]);
    expect(succeeded).toBeGreaterThan(0);
    const cards = Number(/^aso_job_duration_seconds_count\{model="card"\} (\d+)$/m.exec(text)?.[1]);
    expect(cards).toBeGreaterThan(0);
    expect(text).toContain(`aso_job_duration_seconds_bucket{model="card",le="+Inf"} ${cards}`);
  });

  it('/readyz answers 503 naming the store that does not answer', async () => {
    const broken = await startTestService({ backend, processJobs: false });
    try {
      if (backend === 'files') await rm(join(broken.dataDir, 'jobs'), { recursive: true });
      else await sql(broken.databaseUrl!, 'ALTER TABLE aso.jobs RENAME TO jobs_gone');
      const ready = await fetch(`${broken.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { ok: boolean; checks: Record<string, string> };
      expect(body.ok).toBe(false);
      expect(body.checks[backend === 'postgres' ? 'database' : 'job_store']).toMatch(/^unavailable: /);
      expect(body.checks.blob_store).toBe('ok');
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(200);
    } finally {
      if (backend === 'files') await mkdir(join(broken.dataDir, 'jobs'));
      else await sql(broken.databaseUrl!, 'ALTER TABLE aso.jobs_gone RENAME TO jobs');
      await broken.stop();
    }
  });

  it('500 as JSON without a stack trace when the store fails', async () => {
    const broken = await startTestService({ backend, processJobs: false });
    const jobsDir = join(broken.dataDir, 'jobs');
    try {
      if (backend === 'files') {
        await rm(jobsDir, { recursive: true });
        await writeFile(jobsDir, 'not a folder');
      } else {
        await sql(broken.databaseUrl!, 'ALTER TABLE aso.jobs RENAME TO jobs_gone');
      }
      const body = await expectError(await postUpload(broken.url, broken.key, 'card', png), 500, 'internal_error');
      expect(body.error.message).not.toMatch(/ENOTDIR|jobs|relation|aso\./);
    } finally {
      if (backend === 'files') {
        await rm(jobsDir, { force: true });
        await mkdir(jobsDir);
      } else {
        await sql(broken.databaseUrl!, 'ALTER TABLE aso.jobs_gone RENAME TO jobs');
      }
      await broken.stop();
    }
  });
});
