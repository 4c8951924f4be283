import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, handleError, toErrorResponse } from '../../../src/jobs/service/api-error.ts';

describe('toErrorResponse', () => {
  it('answers an ApiError with its status, code, message and headers', () => {
    const error = new ApiError(429, 'rate_limited', 'slow down', { 'retry-after': '7' });
    expect(toErrorResponse(error)).toEqual({ status: 429, headers: { 'retry-after': '7' }, body: { error: { code: 'rate_limited', message: 'slow down' } }, internal: false });
  });

  it("gives fastify's own errors a code and a message of the API", () => {
    const framework = (code: string, statusCode = 400) => toErrorResponse(Object.assign(new Error(`fastify says ${code}`), { code, statusCode }));
    expect(framework('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
    expect(framework('FST_ERR_CTP_BODY_TOO_LARGE', 413)).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large', message: 'the request body is too large' } } });
    expect(framework('FST_REQ_FILE_TOO_LARGE', 413)).toMatchObject({ status: 413, body: { error: { code: 'image_too_large' } } });
    expect(framework('FST_ERR_CTP_SOMETHING_NEW')).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
  });

  it('keeps the status of other client errors, and makes an unknown one a 400', () => {
    const clientError = (statusCode: number) => toErrorResponse(Object.assign(new Error('bad query'), { statusCode }));
    expect(clientError(404)).toMatchObject({ status: 404, body: { error: { code: 'invalid_request', message: 'bad query' } }, internal: false });
    expect(clientError(403)).toMatchObject({ status: 400, internal: false });
    expect(toErrorResponse(Object.assign(new Error('body/limit must be integer'), { validation: [{}] }))).toMatchObject({ status: 400, body: { error: { message: 'body/limit must be integer' } } });
  });

  it('hides everything else behind an internal error', () => {
    for (const thrown of [new Error('ENOSPC: /var/data/jobs'), 'a string', Object.assign(new Error('upstream'), { statusCode: 502 })]) {
      expect(toErrorResponse(thrown)).toEqual({
        status: 500,
        headers: {},
        body: { error: { code: 'internal_error', message: 'the service failed to handle the request; the error is in its log' } },
        internal: true,
      });
    }
  });
});

describe('handleError in a fastify app', () => {
  let app: FastifyInstance;
  let url: string;
  const logged: string[] = [];
  beforeAll(async () => {
    app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } } });
    app.setErrorHandler(handleError);
    app.get('/api-error', async () => {
      throw new ApiError(422, 'unknown_model', 'model "x" is not in the catalog', { 'x-extra': 'yes' });
    });
    app.get('/crash', async () => {
      throw new Error('secret path /var/data/keys');
    });
    app.post('/json', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => app?.close());

  it('answers JSON with the status and headers, never cached', async () => {
    const response = await fetch(`${url}/api-error`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ error: { code: 'unknown_model', message: 'model "x" is not in the catalog' } });
    expect(logged).toEqual([]);
  });

  it('answers an internal error without its message or stack, and logs it', async () => {
    const response = await fetch(`${url}/crash`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'the service failed to handle the request; the error is in its log' } });
    expect(text).not.toContain('secret');
    expect(logged.join('')).toContain('secret path /var/data/keys');
  });

  it('answers a body that is not JSON as invalid_json', async () => {
    const response = await fetch(`${url}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid_json', message: 'the request body is not valid JSON' } });
  });
});
