import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { runJobsCli } from '../../src/jobs/service/cli.ts';
import { openBackend } from '../../src/jobs/store/backend.ts';
import type { WebhookDelivery } from '../../src/jobs/store/types.ts';
import { sql } from '../support/postgres.ts';
import { authed, BACKENDS, discPng, postJson, postUpload, startTestService, tempDir, testData, waitForJob, type BackendKind, type TestData, type TestService } from './helpers.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One request a receiver got, with the raw body its signature covers. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered with (undefined: it never answered). */
  answered?: number;
}

/** A webhook receiver on 127.0.0.1 whose answer to each request `respond` decides (a status, or `hang`). */
async function receiver(respond: (n: number, got: Received) => number | 'hang') {
  const got: Received[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      got.push(entry);
      const answer = respond(got.length, entry);
      if (answer !== 'hang') {
        entry.answered = answer;
        res.writeHead(answer).end();
      }
      for (const w of waiting) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  /** Resolves once `test` holds for what was received. */
  const until = (test: (all: Received[]) => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the receiver never saw ${what}; it got ${JSON.stringify(got.map((g) => [g.headers['webhook-id'], g.answered]))}`)), 30_000);
      const check = (): void => {
        if (!test(got)) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, until };
}

/** The event a delivery carries, verified with `secret` by the Standard Webhooks library (which throws on a bad signature). */
function verified(secret: string, got: Received): { type: string; timestamp: string; data: JobDocument } {
  return new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; timestamp: string; data: JobDocument };
}

async function secretOf(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/v1/webhooks/secret`, authed(key));
  expect(response.status).toBe(200);
  const { secret } = (await response.json()) as { secret: string };
  return secret;
}

async function data(backend: BackendKind): Promise<TestData> {
  const made = await testData(backend);
  cleanups.push(made.remove);
  return made;
}

/** A service over `at` whose failed deliveries are retried every 20 ms (many times), each attempt limited to `timeoutMs`. */
async function start(at: TestData, timeoutMs = 15_000, extra: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const svc = await startTestService({ webhooks: { retryDelaysMs: Array(500).fill(20), timeoutMs }, ...extra }, at);
  cleanups.push(() => svc.service.close());
  return svc;
}

describe.each(BACKENDS)('webhooks (%s)', (backend) => {
  it('pushes job.running and job.succeeded, signed with the key’s secret, for a JSON and a multipart job', async () => {
    const svc = await start(await data(backend));
    const hook = await receiver(() => 204);
    const secret = await secretOf(svc.url, svc.key);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await secretOf(svc.url, svc.key)).toBe(secret);

    const png = await discPng();
    const form = new FormData();
    form.set('model', 'card');
    form.set('webhook_url', hook.url);
    form.set('image', new Blob([new Uint8Array(png)]), 'disc.png');
    const uploaded = (await (await fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', body: form }))).json()) as JobDocument;
    const served = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => served.close(() => resolve())));
    const byUrl = (await (await postJson(svc.url, svc.key, { model: 'points', image_url: `http://127.0.0.1:${(served.address() as AddressInfo).port}/disc.png`, webhook_url: hook.url })).json()) as JobDocument;

    await hook.until((all) => all.length >= 4, 'four deliveries');
    const events = hook.got.map((g) => verified(secret, g));
    for (const job of [uploaded, byUrl]) {
      const mine = events.filter((e) => e.data.id === job.id);
      expect(mine.map((e) => e.type)).toEqual(['job.running', 'job.succeeded']);
      const done = await waitForJob(svc.url, svc.key, job.id);
      expect(mine[1]!.data).toEqual(done);
      expect(mine[1]!.data.download_url).toBe(`${svc.url}/v1/jobs/${job.id}/asset`);
      expect(mine[1]!.timestamp).toBe(done.updated_at);
      expect(mine[0]!.data).toMatchObject({ id: job.id, status: 'running' });
    }
    const ids = hook.got.map((g) => g.headers['webhook-id']!);
    expect(new Set(ids).size).toBe(4);
    for (const g of hook.got) {
      expect(g.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(g.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(g.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(g.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      // Another key's secret does not verify it.
      expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, g)).toThrow('No matching signature found');
    }
  });

  it('retries a failed delivery with the same webhook-id, and delivers it after a restart on the same data', async () => {
    const at = await data(backend);
    let accept = false;
    const hook = await receiver(() => (accept ? 200 : 500));
    const first = await start(at);
    const secret = await secretOf(first.url, first.key);
    const made = (await (await postJson(first.url, first.key, { model: 'card', image_url: 'http://127.0.0.1:1/none.png', webhook_url: hook.url })).json()) as JobDocument;
    expect((await waitForJob(first.url, first.key, made.id)).status).toBe('failed');
    // The image could not be fetched: running, then failed; each refused by the receiver at least twice.
    const failedType = (g: Received) => verified(secret, g).type === 'job.failed';
    await hook.until((all) => all.filter(failedType).length >= 2, 'a retried job.failed');
    await first.service.close();

    const attempts = hook.got.filter(failedType);
    expect(new Set(attempts.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(attempts.every((g) => g.answered === 500)).toBe(true);
    const seenBefore = hook.got.length;
    accept = true;

    const second = await start(at, 15_000, { processJobs: false });
    const acceptedTypes = (all: Received[]) => new Set(all.slice(seenBefore).filter((g) => g.answered === 200).map((g) => verified(secret, g).type));
    await hook.until((all) => acceptedTypes(all).size === 2, 'job.running and job.failed accepted after the restart');
    const accepted = hook.got.slice(seenBefore).find((g) => failedType(g) && g.answered === 200)!;
    expect(accepted.headers['webhook-id']).toBe(attempts[0]!.headers['webhook-id']);
    expect(accepted.body).toBe(attempts[0]!.body);
    expect(verified(secret, accepted).data).toMatchObject({ id: made.id, status: 'failed', error: { code: 'image_fetch_failed' } });
    await second.service.close();

    // The store records it as delivered, after more than one attempt, and has nothing left to send.
    const stores = await openBackend({ dataDir: at.dataDir, databaseUrl: at.databaseUrl });
    try {
      const records = await stores.deliveries.listByJob(made.id);
      const failed = records.find((r) => r.type === 'job.failed') as WebhookDelivery;
      expect(failed).toMatchObject({ status: 'delivered', lastResult: 'HTTP 200', nextAttemptAt: null });
      expect(failed.attempts).toBeGreaterThan(2);
      expect(records.map((r) => [r.type, r.status])).toEqual([
        ['job.running', 'delivered'],
        ['job.failed', 'delivered'],
      ]);
    } finally {
      await stores.close();
    }
  });

  it('a delivery that gets no answer in time is retried with the same id; a key made before webhooks gets a secret when first asked', async () => {
    const at = await data(backend);
    const hook = await receiver((n) => (n === 1 ? 'hang' : 204));
    const svc = await start(at, 300);
    if (backend === 'postgres') await sql(at.databaseUrl!, 'UPDATE aso.api_keys SET webhook_secret = NULL');
    else {
      const { readdir, readFile, writeFile } = await import('node:fs/promises');
      const dir = `${at.dataDir}/keys`;
      for (const name of await readdir(dir)) {
        const { webhookSecret: _dropped, ...old } = JSON.parse(await readFile(`${dir}/${name}`, 'utf8')) as Record<string, unknown>;
        await writeFile(`${dir}/${name}`, JSON.stringify(old));
      }
    }
    const secret = await secretOf(svc.url, svc.key);
    expect(secret).toMatch(/^whsec_/);
    // A job without a webhook: nothing is sent for it.
    const quiet = (await (await postUpload(svc.url, svc.key, 'card', await discPng())).json()) as JobDocument;
    const made = (await (await postJson(svc.url, svc.key, { model: 'card', image_url: 'http://127.0.0.1:1/none.png', webhook_url: hook.url })).json()) as JobDocument;
    await hook.until((all) => all.filter((g) => g.answered === 204).length >= 2, 'both events accepted');
    const first = hook.got[0]!;
    expect(first.answered).toBeUndefined();
    const again = hook.got.filter((g) => g.headers['webhook-id'] === first.headers['webhook-id']);
    expect(again.length).toBeGreaterThanOrEqual(2);
    expect(again.at(-1)!.answered).toBe(204);
    expect((await waitForJob(svc.url, svc.key, quiet.id)).status).toBe('succeeded');
    expect(new Set(hook.got.map((g) => verified(secret, g).data.id))).toEqual(new Set([made.id]));
    expect(await secretOf(svc.url, svc.key)).toBe(secret);
  });
});

describe('webhook_url and the webhook secret', () => {
  it('refuses file:, ftp:, malformed URLs and addresses the service may not reach, naming the field; stores no job', async () => {
    const svc = await startTestService({ allowLoopbackFetch: false });
    cleanups.push(svc.stop);
    const png = await discPng();
    const refused = async (webhook: unknown, status: number, code: string, message: RegExp): Promise<void> => {
      const response = await postJson(svc.url, svc.key, { model: 'card', image_url: 'https://example.com/a.png', webhook_url: webhook });
      expect(response.status, String(webhook)).toBe(status);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(message);
      expect(body.error.message).toContain('webhook_url');
    };
    await refused('file:///etc/passwd', 400, 'invalid_webhook_url', /must use http or https, not file/);
    await refused('ftp://example.com/hook', 400, 'invalid_webhook_url', /must use http or https, not ftp/);
    await refused('not a url', 400, 'invalid_webhook_url', /is not an absolute URL/);
    await refused('http://user:secret@example.com/hook', 400, 'invalid_webhook_url', /user name or password/);
    await refused(42, 400, 'invalid_request', /field "webhook_url" must be a non-empty string/);
    await refused('', 400, 'invalid_request', /must be a non-empty string/);
    await refused('http://127.0.0.1:9/hook', 422, 'webhook_url_refused', /127\.0\.0\.1 is a loopback address/);
    await refused('http://[::1]:9/hook', 422, 'webhook_url_refused', /loopback/);
    await refused('http://10.1.2.3/hook', 422, 'webhook_url_refused', /private address/);
    await refused('http://169.254.169.254/latest/meta-data', 422, 'webhook_url_refused', /link-local/);
    await refused('http://unresolvable.invalid/hook', 422, 'webhook_url_unresolvable', /does not resolve/);

    const form = new FormData();
    form.set('model', 'card');
    form.set('webhook_url', 'ftp://example.com/hook');
    form.set('image', new Blob([new Uint8Array(png)]), 'disc.png');
    const multipart = await fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', body: form }));
    expect(multipart.status).toBe(400);
    expect(((await multipart.json()) as { error: { message: string } }).error.message).toBe('webhook_url must use http or https, not ftp');

    const listed = (await (await fetch(`${svc.url}/v1/jobs`, authed(svc.key))).json()) as { data: unknown[] };
    expect(listed.data).toEqual([]);
  });

  it('GET /v1/webhooks/secret needs a key, answers each key its own secret, the one `keys create` printed', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const out: string[] = [];
    expect(await runJobsCli(['keys', 'create', '--name', 'hooks', '--data', dir.path], { out: (l) => out.push(l), err: () => {} })).toBe(0);
    const key = out.at(-1)!;
    const printed = /webhook signing secret .*: (whsec_\S+)$/m.exec(out.join('\n'))?.[1];
    expect(printed).toMatch(/^whsec_/);
    const svc = await startTestService({}, { backend: 'files', dataDir: dir.path, remove: async () => {} });
    cleanups.push(() => svc.service.close());
    expect(await secretOf(svc.url, key)).toBe(printed);
    expect(await secretOf(svc.url, svc.key)).not.toBe(printed);
    const anonymous = await fetch(`${svc.url}/v1/webhooks/secret`);
    expect(anonymous.status).toBe(401);
  });
});
