/**
 * Uploads are streamed to a temporary file in the data folder and handed to the blob store, a bounded number at a time:
 * beyond a key's share a new upload is 429, beyond the service's 503, both with Retry-After; a slot comes free when its
 * upload is stored, refused or abandoned, and no temporary file stays behind.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { dataPaths } from '../../src/jobs/store/data-dir.ts';
import { authed, BACKENDS, discPng, postJson, postUpload, startTestService, type TestService } from './helpers.ts';

type ErrorBody = { error: { code: string; message: string } };

/** An upload whose body is sent in two steps: its start now, the rest on `finish()`; `abort()` drops the connection. */
interface HeldUpload {
  finish(): Promise<Response>;
  abort(): void;
}

function heldUpload(url: string, key: string, image: Uint8Array): HeldUpload {
  const boundary = `held${randomBytes(6).toString('hex')}`;
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  controller.enqueue(encode(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ncard\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="held.png"\r\nContent-Type: image/png\r\n\r\n`));
  controller.enqueue(image.subarray(0, 16));
  const abort = new AbortController();
  const init = authed(key, { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, signal: abort.signal });
  const response = fetch(`${url}/v1/jobs`, { ...init, duplex: 'half' } as RequestInit);
  response.catch(() => {});
  return {
    finish: () => {
      controller.enqueue(image.subarray(16));
      controller.enqueue(encode(`\r\n--${boundary}--\r\n`));
      controller.close();
      return response;
    },
    abort: () => abort.abort(),
  };
}

describe.each(BACKENDS)('uploads, streamed and bounded in number (%s)', (backend) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ backend, processJobs: false, uploads: { maxUploads: 3, maxUploadsPerKey: 2 } });
  });
  afterAll(() => svc.stop());

  const uploadsInProgress = async (count: number): Promise<void> => {
    const pattern = new RegExp(`^aso_process_uploads_in_progress ${count}$`, 'm');
    for (let i = 0; i < 400; i++) {
      if (pattern.test(await (await fetch(`${svc.url}/metrics`)).text())) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`the service never reported ${count} uploads in progress`);
  };

  it('refuses uploads beyond a key’s share with 429 and beyond the service’s with 503, then takes them once slots are free', async () => {
    const keyB = await svc.service.createKey('b');
    const keyC = await svc.service.createKey('c');
    const png = await discPng();
    const a1 = heldUpload(svc.url, svc.key, png);
    const a2 = heldUpload(svc.url, svc.key, png);
    await uploadsInProgress(2);

    const perKey = await postUpload(svc.url, svc.key, 'card', png);
    expect(perKey.status).toBe(429);
    expect(perKey.headers.get('retry-after')).toBe('5');
    expect(((await perKey.json()) as ErrorBody).error).toEqual({
      code: 'too_many_uploads',
      message: 'this API key has 2 uploads in progress, the most it may have at once; retry when one has finished',
    });

    const b1 = heldUpload(svc.url, keyB, png);
    await uploadsInProgress(3);
    const inAll = await postUpload(svc.url, keyC, 'card', png);
    expect(inAll.status).toBe(503);
    expect(inAll.headers.get('retry-after')).toBe('5');
    expect(((await inAll.json()) as ErrorBody).error).toEqual({ code: 'service_busy', message: 'the service is reading 3 uploads, the most it reads at once; retry in a few seconds' });
    // A job by URL uploads nothing and is not counted.
    expect((await postJson(svc.url, keyC, { model: 'card', image_url: 'http://127.0.0.1:9/a.png' })).status).toBe(202);

    // An abandoned upload frees its slot; finished ones are stored.
    a2.abort();
    await uploadsInProgress(2);
    expect((await a1.finish()).status).toBe(202);
    expect((await b1.finish()).status).toBe(202);
    await uploadsInProgress(0);
    const accepted = await postUpload(svc.url, keyC, 'card', png);
    expect(accepted.status).toBe(202);

    // The stored input is the upload; the hash taken on the way tells a repeated upload from another one.
    const job = (await accepted.json()) as JobDocument;
    const blobs = dataPaths(svc.dataDir).blobs;
    expect(new Uint8Array(await readFile(join(blobs, `${job.id}.input`)))).toEqual(png);
    const first = await postUpload(svc.url, keyC, 'card', png, { 'idempotency-key': 'order-1' });
    const repeated = await postUpload(svc.url, keyC, 'card', png, { 'idempotency-key': 'order-1' });
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
    expect(((await repeated.json()) as JobDocument).id).toBe(((await first.json()) as JobDocument).id);
    const other = await postUpload(svc.url, keyC, 'card', await discPng(32, 32), { 'idempotency-key': 'order-1' });
    expect(other.status).toBe(422);
    // One input per job and no temporary file left behind, whether the upload was stored, refused, repeated or abandoned.
    const names = await readdir(blobs);
    expect(names.filter((n) => !/^[0-9a-f-]{36}\.input$/.test(n))).toEqual([]);
    expect(names).toHaveLength(4);
  });
});
