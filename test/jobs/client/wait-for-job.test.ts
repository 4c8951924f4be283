import { afterAll, describe, expect, it } from 'vitest';
import { JobApiError } from '../../../src/jobs/client/job-api-error.ts';
import { JobClient } from '../../../src/jobs/client/job-client.ts';
import { parseJob, type ApiJob } from '../../../src/jobs/client/parse-job.ts';
import { waitForJob, type WaitOptions } from '../../../src/jobs/client/wait-for-job.ts';
import { jobJson, json, scriptedApi } from '../../support/scripted-server.ts';

const job = (over: Record<string, unknown> = {}) => parseJob(jobJson(over)) as ApiJob;
const succeeded = { status: 'succeeded', progress: 100, download_url: '/v1/jobs/job-1/asset' };
const fast: WaitOptions = { backoff: { initialMs: 2, maxMs: 8, factor: 2 } };

describe('waitForJob', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  /** A client of an API that answers the polls with `states` in turn (the last one again and again). */
  async function polled(states: Array<Record<string, unknown>>) {
    const server = await scriptedApi((_r, n) => json(200, jobJson(states[Math.min(n, states.length) - 1])));
    servers.push(server);
    return { client: new JobClient({ baseUrl: server.url, apiKey: 'k', retries: 0 }), server };
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
});
