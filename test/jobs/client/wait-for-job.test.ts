import { afterAll, describe, expect, it } from 'vitest';
import { JobApiError } from '../../../src/jobs/client/job-api-error.ts';
import { JobClient } from '../../../src/jobs/client/job-client.ts';
import { parseJob, type ApiJob } from '../../../src/jobs/client/parse-job.ts';
import { waitForJob, type WaitOptions } from '../../../src/jobs/client/wait-for-job.ts';
import { jobJson, json, scriptedApi, type ScriptedAnswer } from '../../support/scripted-server.ts';
import { discPng, startTestService } from '../helpers.ts';

const job = (over: Record<string, unknown> = {}) => parseJob(jobJson(over)) as ApiJob;
const succeeded = { status: 'succeeded', progress: 100, download_url: '/v1/jobs/job-1/asset' };
const fast: WaitOptions = { backoff: { initialMs: 2, maxMs: 8, factor: 2 } };

/** An event stream answer carrying `states` as `job` events with the given ids, then its end. */
function sse(states: Array<{ id?: string; over?: Record<string, unknown>; data?: string }>): ScriptedAnswer {
  const body = ['retry: 2000\n\n', ...states.map((s) => `${s.id ? `id: ${s.id}\n` : ''}event: job\ndata: ${s.data ?? JSON.stringify(jobJson(s.over))}\n\n`)].join('');
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body };
}

describe('waitForJob', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  /**
   * A client of an API without an event stream (a service older than it: 404 for the route) that answers the polls
   * with `states` in turn (the last one again and again); `server.requests` are the polls.
   */
  async function polled(states: Array<Record<string, unknown>>) {
    let polls = 0;
    const all = await scriptedApi((r) => (r.url.endsWith('/events') ? json(404, { error: { code: 'not_found', message: `no route GET ${r.url}` } }) : json(200, jobJson(states[Math.min(++polls, states.length) - 1]))));
    servers.push(all);
    const server = { get requests() { return all.requests.filter((r) => !r.url.endsWith('/events')); } };
    return { client: new JobClient({ baseUrl: all.url, apiKey: 'k', retries: 0 }), server, all };
  }

  it('polls until the job succeeds, reporting every state on the way', async () => {
    const { client, server } = await polled([{ status: 'running', progress: 10 }, { status: 'running', progress: 60 }, succeeded]);
    const seen: string[] = [];
    const done = await waitForJob(client, job(), { ...fast, onUpdate: (j) => seen.push(`${j.status} ${j.progress}`) });
    expect(done.status).toBe('succeeded');
    expect(seen).toEqual(['queued 0', 'running 10', 'running 60', 'succeeded 100']);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/jobs/job-1', '/v1/jobs/job-1', '/v1/jobs/job-1']);
  });

  it('returns a job that has succeeded already without polling', async () => {
    const { client, server } = await polled([]);
    expect(await waitForJob(client, job(succeeded), fast)).toMatchObject({ status: 'succeeded' });
    expect(server.requests).toHaveLength(0);
  });

  it("fails with the job's error when it fails, and says when it was canceled", async () => {
    const { client } = await polled([{ status: 'failed', error: { code: 'no_foreground', message: 'nothing to trace' } }]);
    const failed = await waitForJob(client, job(), fast).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(JobApiError);
    expect(failed).toMatchObject({ kind: 'http', code: 'no_foreground', message: 'job job-1 failed: nothing to trace (no_foreground)' });
    await expect(waitForJob(client, job({ status: 'failed' }), fast)).rejects.toMatchObject({ code: 'job_failed', message: 'job job-1 failed: the API gave no reason' });
    await expect(waitForJob(client, job({ status: 'canceled' }), fast)).rejects.toMatchObject({ code: 'job_canceled', message: 'job job-1 was canceled' });
  });

  it('gives up at the deadline, however long the next poll would wait, saying where the job was', async () => {
    const { client } = await polled([{ status: 'running', progress: 42.4 }]);
    const start = Date.now();
    const error = await waitForJob(client, job(), { backoff: { initialMs: 20_000, maxMs: 20_000, factor: 1 }, timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', message: 'job job-1 did not finish within 0.2 s (last seen running, 42%)' });
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it('waits longer while nothing moves, and starts over when progress moves', async () => {
    const states = [...Array(6).fill({ status: 'running', progress: 5 }), { status: 'running', progress: 50 }, { status: 'running', progress: 50 }, succeeded];
    const { client, server } = await polled(states);
    const times: number[] = [];
    await waitForJob(client, job({ status: 'running', progress: 5 }), { backoff: { initialMs: 8, maxMs: 1000, factor: 2 }, onUpdate: () => times.push(performance.now()) });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(server.requests).toHaveLength(9);
    // Six polls without change: each wait at least half of 8 * 2^n ms; after progress moves, back to at most 8 ms (plus the request).
    expect(gaps[5]!).toBeGreaterThanOrEqual(4 * 2 ** 5 - 2);
    expect(gaps[7]!).toBeLessThan(gaps[5]! / 2);
  });

  it('refuses an answer about another job', async () => {
    const { client } = await polled([{ id: 'job-2', status: 'running' }]);
    await expect(waitForJob(client, job(), fast)).rejects.toMatchObject({ kind: 'garbage', message: 'asked for job job-1, the API answered with job job-2' });
  });

  it('stops when aborted', async () => {
    const { client } = await polled([{ status: 'running' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(waitForJob(client, job(), { backoff: { initialMs: 10_000, maxMs: 10_000, factor: 1 }, signal: controller.signal })).rejects.toMatchObject({
      kind: 'aborted',
      message: 'interrupted while waiting for job job-1',
    });
  });

  describe('following the event stream', () => {
    async function streamed(answer: (r: { url: string; headers: Record<string, string | string[] | undefined> }, n: number) => ScriptedAnswer) {
      const server = await scriptedApi(answer);
      servers.push(server);
      return { client: new JobClient({ baseUrl: server.url, apiKey: 'k', retries: 0 }), server };
    }

    it('follows the stream instead of polling, reporting every state', async () => {
      const { client, server } = await streamed(() => sse([{ id: '1-1-10', over: { status: 'running', progress: 10 } }, { id: '1-1-60', over: { status: 'running', progress: 60 } }, { id: '2-2-100', over: succeeded }]));
      const seen: string[] = [];
      const done = await waitForJob(client, job(), { ...fast, onUpdate: (j) => seen.push(`${j.status} ${j.progress}`) });
      expect(done).toMatchObject({ status: 'succeeded', download_url: '/v1/jobs/job-1/asset' });
      expect(seen).toEqual(['queued 0', 'running 10', 'running 60', 'succeeded 100']);
      expect(server.requests.map((r) => r.url)).toEqual(['/v1/jobs/job-1/events']);
      expect(server.requests[0]!.headers).toMatchObject({ accept: 'text/event-stream', authorization: 'Bearer k' });
      expect(server.requests[0]!.headers['last-event-id']).toBeUndefined();
    });

    it('connects again after a stream that ends early, resuming after the last event with Last-Event-ID', async () => {
      const { client, server } = await streamed((_r, n) => (n === 1 ? sse([{ id: '5-1-40', over: { status: 'running', progress: 40 } }]) : sse([{ id: '9-2-0', over: { status: 'failed', error: { code: 'no_foreground', message: 'nothing to trace' } } }])));
      await expect(waitForJob(client, job(), fast)).rejects.toMatchObject({ code: 'no_foreground', message: 'job job-1 failed: nothing to trace (no_foreground)' });
      expect(server.requests.map((r) => [r.url, r.headers['last-event-id']])).toEqual([
        ['/v1/jobs/job-1/events', undefined],
        ['/v1/jobs/job-1/events', '5-1-40'],
      ]);
    });

    it('polls instead when the stream sends what is not a job, or keeps ending without news', async () => {
      const garbled = await streamed((r) => (r.url.endsWith('/events') ? sse([{ data: '{"id":"job-1","status":"exploded"}' }]) : json(200, jobJson(succeeded))));
      expect(await waitForJob(garbled.client, job(), fast)).toMatchObject({ status: 'succeeded' });
      expect(garbled.server.requests.map((r) => r.url)).toEqual(['/v1/jobs/job-1/events', '/v1/jobs/job-1']);

      const silent = await streamed((r) => (r.url.endsWith('/events') ? sse([]) : json(200, jobJson(succeeded))));
      expect(await waitForJob(silent.client, job(), fast)).toMatchObject({ status: 'succeeded' });
      expect(silent.server.requests.map((r) => r.url)).toEqual(['/v1/jobs/job-1/events', '/v1/jobs/job-1/events', '/v1/jobs/job-1/events', '/v1/jobs/job-1']);

      const other = await streamed((r) => (r.url.endsWith('/events') ? sse([{ over: { id: 'job-2', status: 'running' } }]) : json(200, jobJson(succeeded))));
      expect(await waitForJob(other.client, job(), fast)).toMatchObject({ status: 'succeeded' });
    });

    it('gives up at the deadline, or when aborted, while the stream says nothing', async () => {
      const { client } = await streamed(() => 'hang');
      await expect(waitForJob(client, job({ status: 'running', progress: 7 }), { timeoutMs: 200 })).rejects.toMatchObject({ kind: 'timeout', message: 'job job-1 did not finish within 0.2 s (last seen running, 7%)' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      await expect(waitForJob(client, job(), { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted', message: 'interrupted while waiting for job job-1' });
    });

    it("follows the reference service's stream: a wait that polled would not see the job finish in time", async () => {
      const svc = await startTestService();
      servers.push({ close: svc.stop });
      const client = new JobClient({ baseUrl: svc.url, apiKey: svc.key });
      const created = await client.createJob({ model: 'card', image: { bytes: await discPng(), filename: 'disc.png' } });
      const seen: string[] = [];
      // The first poll would come after at least 60 s, past the 30 s deadline.
      const done = await waitForJob(client, created, { timeoutMs: 30_000, backoff: { initialMs: 120_000, maxMs: 120_000, factor: 1 }, onUpdate: (j) => seen.push(j.status) });
      expect(done).toMatchObject({ id: created.id, status: 'succeeded', progress: 100 });
      expect(seen.at(-1)).toBe('succeeded');
      expect((await client.downloadAsset(done)).sha256).toBe(done.asset!.sha256);
    });
  });
});
