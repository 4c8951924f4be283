import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponseError, NetworkError, NotFoundError } from '../../packages/sdk/src/errors.ts';
import { get, getJson } from '../../packages/sdk/src/request.ts';
import { scriptedApi } from '../support/scripted-server.ts';

describe('get and getJson over loopback', () => {
  let server: Awaited<ReturnType<typeof scriptedApi>>;
  beforeAll(async () => {
    server = await scriptedApi((req) => {
      switch (req.url) {
        case '/doc.json':
          return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' };
        case '/gone':
          return { status: 410, body: 'gone' };
        case '/missing':
          return { status: 404, body: '<html>not here</html>' };
        case '/broken':
          return { status: 503, body: 'later' };
        case '/html':
          return { status: 200, headers: { 'content-type': 'text/html' }, body: '\n   <!doctype html><html><body>Sign in to continue</body></html>' };
        default:
          return { status: 500 };
      }
    });
  });
  afterAll(() => server?.close());

  it('parses JSON and asks for it', async () => {
    expect(await getJson(fetch, `${server.url}/doc.json`)).toEqual({ a: [1, 2] });
    expect(server.requests.at(-1)!.headers.accept).toBe('application/json');
    expect((await get(fetch, `${server.url}/doc.json`)).status).toBe(200);
  });

  it('throws NotFoundError for 404 and 410', async () => {
    for (const [path, status] of [['/missing', 404], ['/gone', 410]] as const) {
      const error = await get(fetch, `${server.url}${path}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: 'not_found', url: `${server.url}${path}`, message: `not found: ${server.url}${path} (HTTP ${status})` });
    }
  });

  it('throws NetworkError with the status for another error, and with a null status when nothing answers', async () => {
    const error = await get(fetch, `${server.url}/broken`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'network', status: 503, message: `request to ${server.url}/broken failed: HTTP 503 Service Unavailable` });
    const gone = await scriptedApi(() => ({ status: 200 }));
    await gone.close();
    const refused = await get(fetch, `${gone.url}/x`).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'network', status: null });
    expect((refused as Error).message).toMatch(new RegExp(`^request to ${gone.url}/x failed: fetch failed \\(.*ECONNREFUSED`));
  });

  it('names a body that is not JSON by its type and its start', async () => {
    const error = await getJson(fetch, `${server.url}/html`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(`invalid response from ${server.url}/html: (document) is not JSON (text/html, starts with "<!doctype html><html><body>Sign in to co")`);
  });

  it('uses the fetch it is given, and lets an abort through as it is', async () => {
    const seen: string[] = [];
    const doc = await getJson(async (url, init) => {
      seen.push(`${init?.method} ${url}`);
      return new Response('[true]');
    }, 'https://nowhere.test/a.json');
    expect(doc).toEqual([true]);
    expect(seen).toEqual(['GET https://nowhere.test/a.json']);
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const error = await get(fetch, `${server.url}/doc.json`, controller.signal).catch((e: unknown) => e);
    expect(error).toBe(reason);
  });
});
