import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { authed, BACKENDS, discPng, postJson, startImageServer, startTestService, testData, waitForJob, type TestService } from './helpers.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An open event stream: the events parsed so far, and a promise that settles when the server ends it. */
interface Stream {
  response: Response;
  events: EventSourceMessage[];
  retry: number[];
  ended: Promise<void>;
  /** Resolves once `test` holds for the events so far. */
  until(test: (events: EventSourceMessage[]) => boolean): Promise<void>;
}

/** Opens `GET /v1/jobs/{id}/events` and reads it with eventsource-parser. */
async function open(url: string, key: string, id: string, headers: Record<string, string> = {}): Promise<Stream> {
  const controller = new AbortController();
  cleanups.push(async () => controller.abort());
  const response = await fetch(`${url}/v1/jobs/${id}/events`, authed(key, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal }));
  const events: EventSourceMessage[] = [];
  const retry: number[] = [];
  const waiting = new Set<() => void>();
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
      for (const w of waiting) w();
    },
    onRetry: (ms) => retry.push(ms),
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  })();
  ended.catch(() => {});
  const until = (test: (all: EventSourceMessage[]) => boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (test(events)) {
          waiting.delete(check);
          resolve();
        }
      };
      waiting.add(check);
      void ended.then(() => (test(events) ? resolve() : reject(new Error(`the stream ended with ${JSON.stringify(events.map((e) => e.data))}`))));
      check();
    });
  return { response, events, retry, ended, until };
}

const jobOf = (e: EventSourceMessage): JobDocument => JSON.parse(e.data) as JobDocument;

/** A job whose image is held by the image server until `release()`: it stays running until then. */
async function heldJob(svc: TestService) {
  const png = await discPng();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const images = await startImageServer((_req, res) => void released.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png)));
  cleanups.push(async () => {
    release();
    await images.close();
  });
  const job = (await (await postJson(svc.url, svc.key, { model: 'relief', image_url: `${images.url}/held.png` })).json()) as JobDocument;
  return { job, release };
}

describe.each(BACKENDS)('GET /v1/jobs/{id}/events (%s)', (backend) => {
  it('streams status and progress with growing ids, ends after the final status, and resumes from Last-Event-ID', async () => {
    const svc = await startTestService({ backend, events: { pollMs: 600_000 } });
    cleanups.push(svc.stop);
    const { job, release } = await heldJob(svc);
    const stream = await open(svc.url, svc.key, job.id);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    await stream.until((all) => all.some((e) => jobOf(e).status === 'running'));
    release();
    await stream.ended;

    const jobs = stream.events.map(jobOf);
    expect(stream.events.every((e) => e.event === 'job' && /^\d+-\d-\d+$/.test(e.id!))).toBe(true);
    expect(jobs.every((j) => j.id === job.id)).toBe(true);
    expect(jobs.at(-1)).toEqual(await waitForJob(svc.url, svc.key, job.id));
    expect(jobs.at(-1)!.status).toBe('succeeded');
    // What came after the release came with the change notifications: the fallback read is ten minutes away.
    expect(jobs.filter((j) => j.status === 'running').length).toBeGreaterThan(1);
    const order = { queued: 0, running: 1, succeeded: 2, failed: 2, canceled: 2 };
    for (let i = 1; i < jobs.length; i++) {
      expect(order[jobs[i]!.status]).toBeGreaterThanOrEqual(order[jobs[i - 1]!.status]);
      if (jobs[i]!.status === 'running' && jobs[i - 1]!.status === 'running') expect(jobs[i]!.progress).toBeGreaterThan(jobs[i - 1]!.progress);
    }
    expect(new Set(stream.events.map((e) => e.id)).size).toBe(stream.events.length);
    expect(stream.retry).toEqual([2000]);

    // Resumed after a running state: only what came later, ending with the final state.
    const middle = stream.events.findIndex((e) => jobOf(e).status === 'running');
    const resumed = await open(svc.url, svc.key, job.id, { 'last-event-id': stream.events[middle]!.id! });
    await resumed.ended;
    expect(resumed.events.map((e) => e.id)).toEqual([stream.events.at(-1)!.id]);
    // Resumed after the final state: nothing more, and the stream ends.
    const done = await open(svc.url, svc.key, job.id, { 'last-event-id': stream.events.at(-1)!.id! });
    await done.ended;
    expect(done.events).toEqual([]);
    // An id it cannot read counts as none: the current state, then the end.
    const garbled = await open(svc.url, svc.key, job.id, { 'last-event-id': 'nonsense' });
    await garbled.ended;
    expect(garbled.events.map(jobOf).map((j) => j.status)).toEqual(['succeeded']);
  });

  it('ends with a canceled job, keeps a quiet stream open with heartbeats, and is answered only to the job’s own key', async () => {
    const svc = await startTestService({ backend, events: { heartbeatMs: 50 } });
    cleanups.push(svc.stop);
    const { job } = await heldJob(svc);
    const comments: string[] = [];
    const response = await fetch(`${svc.url}/v1/jobs/${job.id}/events`, authed(svc.key, { headers: { accept: 'text/event-stream' } }));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/: keep-alive/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    comments.push(...text.split('\n').filter((l) => l.startsWith(':')));
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${svc.url}/v1/jobs/${job.id}/cancel`, authed(svc.key, { method: 'POST' }))).status).toBe(200);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const last = text.trim().split('\n\n').filter((block) => block.includes('event: job')).at(-1)!;
    expect(JSON.parse(/^data: (.*)$/m.exec(last)![1]!)).toMatchObject({ id: job.id, status: 'canceled' });

    const other = await svc.service.createKey('other');
    const foreign = await fetch(`${svc.url}/v1/jobs/${job.id}/events`, authed(other, { headers: { accept: 'text/event-stream' } }));
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('job_not_found');
    expect((await fetch(`${svc.url}/v1/jobs/${job.id}/events`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    const json = await fetch(`${svc.url}/v1/jobs/${job.id}/events`, authed(svc.key, { headers: { accept: 'application/json' } }));
    expect(json.status).toBe(406);
    expect(((await json.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'not_acceptable', message: expect.stringContaining('Accept: text/event-stream') });
  });
});

describe('the event stream on Postgres', () => {
  it('follows a job through an API process that does not run it: the change notifications come through the database', { timeout: 120_000 }, async () => {
    const data = await testData('postgres');
    cleanups.push(data.remove);
    // The API process reads the job only when told of a change: its fallback read is ten minutes away.
    const api = await startTestService({ role: 'api', events: { pollMs: 600_000 } }, data);
    cleanups.push(() => api.service.close());
    const worker = await startTestService({ role: 'worker' }, data);
    cleanups.push(() => worker.service.close());
    const { job, release } = await heldJob(api);
    const stream = await open(api.url, api.key, job.id);
    await stream.until((all) => all.some((e) => jobOf(e).status === 'running'));
    release();
    await stream.ended;
    expect(jobOf(stream.events.at(-1)!)).toMatchObject({ id: job.id, status: 'succeeded', progress: 100, download_url: `${api.url}/v1/jobs/${job.id}/asset` });
  });
});
