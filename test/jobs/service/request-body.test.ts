import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '../../../src/jobs/service/api-error.ts';
import { idempotencyKey, readCreateRequest, requestHash, sha256Hex } from '../../../src/jobs/service/request-body.ts';

const MAX_IMAGE = 64;

describe('readCreateRequest and idempotencyKey, behind a real fastify app', () => {
  let app: FastifyInstance;
  let url: string;
  let staging: string;
  beforeAll(async () => {
    staging = await mkdtemp(join(tmpdir(), 'aso-uploads-test-'));
    app = Fastify();
    app.setErrorHandler(handleError);
    await app.register(multipart);
    app.post('/v1/jobs', async (request) => {
      const body = await readCreateRequest(request, { maxImageBytes: MAX_IMAGE, temporaryPath: () => join(staging, `${randomBytes(6).toString('hex')}.tmp`) });
      const image = body.upload ? [...(await readFile(body.upload.path))] : null;
      if (body.upload) await rm(body.upload.path);
      return {
        model: body.model ?? null,
        imageUrl: body.imageUrl ?? null,
        image,
        byteLength: body.upload?.byteLength ?? null,
        sha256: body.upload?.sha256 ?? null,
        filename: body.filename ?? null,
        key: idempotencyKey(request) ?? null,
        ...(body.webhookUrl === undefined ? {} : { webhookUrl: body.webhookUrl }),
      };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/jobs`;
  });
  afterAll(async () => {
    await app?.close();
    await rm(staging, { recursive: true, force: true });
  });

  const postJson = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const postForm = (fill: (form: FormData) => void) => {
    const form = new FormData();
    fill(form);
    return fetch(url, { method: 'POST', body: form });
  };
  const refusal = async (response: Response) => {
    expect(response.status).toBe(400);
    return ((await response.json()) as { error: { code: string; message: string } }).error;
  };

  it('reads a JSON request, leaving the model for the caller to check', async () => {
    const response = await postJson({ model: 'relief', image_url: 'https://images.test/a.png' }, { 'idempotency-key': 'order-17' });
    expect(await response.json()).toEqual({ model: 'relief', imageUrl: 'https://images.test/a.png', image: null, byteLength: null, sha256: null, filename: null, key: 'order-17' });
    expect(await (await postJson({ model: 42, image_url: 'x' })).json()).toMatchObject({ model: 42, key: null });
  });

  it('names what is wrong with a JSON request', async () => {
    expect(await refusal(await postJson(['relief']))).toEqual({ code: 'invalid_request', message: 'the body must be a JSON object with "model" and "image_url"' });
    expect((await refusal(await postJson({ model: 'relief', image_url: 'x', colour: 'red' }))).message).toBe('unknown field "colour"; a job takes "model", "image_url" and "webhook_url"');
    expect((await refusal(await postJson({ model: 'relief' }))).message).toBe('field "image_url" is required (or upload the image as multipart/form-data)');
    expect((await refusal(await postJson({ model: 'relief', image_url: '' }))).message).toBe('field "image_url" must be a non-empty string');
    expect((await refusal(await postJson({ model: 'relief', image_url: 7 }))).message).toBe('field "image_url" must be a non-empty string');
    expect((await refusal(await postJson({ model: 'relief', image_url: `https://x.test/${'a'.repeat(4096)}` }))).message).toBe('field "image_url" is longer than 4096 characters');
  });

  it('reads webhook_url from JSON and multipart, and names it when it is not a usable string', async () => {
    const hook = 'https://hooks.test/aso';
    expect(await (await postJson({ model: 'relief', image_url: 'https://images.test/a.png', webhook_url: hook })).json()).toMatchObject({ webhookUrl: hook });
    const form = await postForm((f) => (f.set('model', 'card'), f.set('webhook_url', hook), f.set('image', new Blob([Uint8Array.from([1])]), 'a.png')));
    expect(await form.json()).toMatchObject({ model: 'card', webhookUrl: hook, byteLength: 1 });
    expect((await refusal(await postJson({ model: 'relief', image_url: 'x', webhook_url: ['x'] }))).message).toBe('field "webhook_url" must be a non-empty string');
    expect((await refusal(await postJson({ model: 'relief', image_url: 'x', webhook_url: `https://x.test/${'a'.repeat(4096)}` }))).message).toBe('field "webhook_url" is longer than 4096 characters');
    expect((await refusal(await postForm((f) => (f.set('webhook_url', ''), f.set('image', new Blob([Uint8Array.from([1])]), 'a.png'))))).message).toBe(
      'field "webhook_url" must be a non-empty string',
    );
  });

  it('streams a multipart upload to a temporary file, with its size, SHA-256 and file name', async () => {
    const response = await postForm((f) => {
      f.set('model', 'card');
      f.set('image', new Blob([Uint8Array.from([1, 2, 3])]), 'photo.png');
    });
    const sha256 = createHash('sha256').update(Uint8Array.from([1, 2, 3])).digest('hex');
    expect(await response.json()).toEqual({ model: 'card', imageUrl: null, image: [1, 2, 3], byteLength: 3, sha256, filename: 'photo.png', key: null });
  });

  it('names what is wrong with a multipart upload', async () => {
    const image = () => new Blob([Uint8Array.from([1])]);
    const cases: Array<[(f: FormData) => void, string]> = [
      [(f) => f.set('model', 'card'), 'field "image" (a file) is required in a multipart request'],
      [(f) => f.set('image', new Blob([]), 'empty.png'), 'the uploaded "image" is empty'],
      [(f) => f.set('picture', image(), 'a.png'), 'unexpected file field "picture"; send the image in the field "image"'],
      [(f) => (f.set('image', image(), 'a.png'), f.set('image_url', 'https://x.test/a.png')), 'send either an "image" file or a JSON "image_url", not both'],
      [(f) => (f.set('model', 'card'), f.set('colour', 'red')), 'unknown field "colour"; a multipart job takes "model", "image" and "webhook_url"'],
    ];
    for (const [fill, message] of cases) expect((await refusal(await postForm(fill))).message).toBe(message);
    // A file already written for a request that is then refused is removed.
    expect(await readdir(staging)).toEqual([]);
  });

  it('refuses an upload over the size limit with 413 and removes what it wrote', async () => {
    const response = await postForm((f) => f.set('image', new Blob([new Uint8Array(MAX_IMAGE + 1)]), 'big.png'));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'image_too_large',
      message: `the uploaded "image" is larger than the limit of ${MAX_IMAGE} bytes`,
    });
    expect(await readdir(staging)).toEqual([]);
  });

  it('refuses an Idempotency-Key that is empty, too long or not visible ASCII', async () => {
    for (const key of ['a b', 'x'.repeat(256), 'clé']) {
      const response = await postJson({ model: 'relief', image_url: 'x' }, { 'idempotency-key': key });
      if (response.status === 200) throw new Error(`"${key}" was accepted`);
      expect(await refusal(response)).toEqual({ code: 'invalid_idempotency_key', message: 'the Idempotency-Key header must be 1 to 255 visible ASCII characters' });
    }
    expect(await (await postJson({ model: 'relief', image_url: 'x' }, { 'idempotency-key': 'x'.repeat(255) })).json()).toMatchObject({ key: 'x'.repeat(255) });
  });
});

describe('requestHash', () => {
  it('is the same for the same model and image, and differs when either changes', () => {
    const upload = (bytes: number[], path = '/staged') => ({ path, byteLength: bytes.length, sha256: sha256Hex(Uint8Array.from(bytes)) });
    const a = requestHash('relief', { model: 'relief', upload: upload([1, 2]), filename: 'a.png' });
    expect(requestHash('relief', { model: 'relief', upload: upload([1, 2], '/elsewhere'), filename: 'other-name.png' })).toBe(a);
    expect(requestHash('card', { model: 'card', upload: upload([1, 2]), filename: 'a.png' })).not.toBe(a);
    expect(requestHash('relief', { model: 'relief', upload: upload([1, 3]), filename: 'a.png' })).not.toBe(a);
    const byUrl = requestHash('relief', { model: 'relief', imageUrl: 'https://x.test/a.png' });
    expect(byUrl).toBe(requestHash('relief', { model: 'relief', imageUrl: 'https://x.test/a.png' }));
    expect(byUrl).not.toBe(requestHash('relief', { model: 'relief', imageUrl: 'https://x.test/b.png' }));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    // A webhook is part of the request; without one the digest is the one stored before webhooks existed.
    expect(requestHash('relief', { model: 'relief', imageUrl: 'https://x.test/a.png', webhookUrl: 'https://hooks.test/1' })).not.toBe(byUrl);
    expect(byUrl).toBe(sha256Hex(new TextEncoder().encode(JSON.stringify({ model: 'relief', image_url: 'https://x.test/a.png' }))));
  });
});

describe('sha256Hex', () => {
  it('is the lowercase hex SHA-256', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(sha256Hex(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
