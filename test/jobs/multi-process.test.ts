import { afterEach, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { openKeys } from '../../src/jobs/store/backend.ts';
import { sql } from '../support/postgres.ts';
import { authed, discPng, postJson, postUpload, startImageServer, testData, waitForJob, type TestData } from './helpers.ts';
import { startJobsProcess, type JobsProcess } from './processes.ts';

/** Several `npm run jobs` processes on one Postgres and one blob folder, on loopback. */

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function shared(): Promise<TestData & { key: string }> {
  const data = await testData('postgres');
  cleanups.push(data.remove);
  const keys = await openKeys(data);
  const { key } = await keys.create('multi');
  await keys.close();
  return { ...data, key };
}

/** Starts a process; workers keep the default lease (30 s) unless `extra` says otherwise, so that a busy machine never makes a live worker look dead. */
async function start(data: TestData, role: 'api' | 'worker', extra: string[] = []): Promise<JobsProcess> {
  const args = ['--role', role, '--data', data.dataDir, '--database-url', data.databaseUrl!, '--allow-loopback-fetch', ...extra];
  const proc = await startJobsProcess(role === 'api' ? ['--port', '0', ...args] : ['--concurrency', '1', ...args]);
  cleanups.push(() => proc.stop('SIGKILL'));
  return proc;
}

/** An image server that holds every request until `release()`; `requests` counts them. */
async function heldImages(png: Uint8Array) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let requests = 0;
  const waiting = new Set<() => void>();
  const server = await startImageServer((_req, res) => {
    requests += 1;
    for (const w of waiting) w();
    void released.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  });
  cleanups.push(async () => {
    release();
    await server.close();
  });
  const requested = (count: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (requests >= count) {
          waiting.delete(check);
          resolve();
        }
      };
      waiting.add(check);
      check();
    });
  return { url: `${server.url}/held.png`, requested, release };
}

const started = (id: string) => (l: Record<string, unknown>) => l.msg === 'job started' && l.job === id;

/** The status changes the database recorded for a job, oldest first. */
function history(url: string, id: string): Promise<Array<{ status: string; attempt: number; worker: string | null }>> {
  return sql(url, 'SELECT status, attempt, worker FROM aso.job_history WHERE job_id = $1 ORDER BY seq', [id]);
}

describe('the job service on several processes sharing Postgres', () => {
  it('one API process and two workers: 30 jobs over HTTP, each run exactly once', { timeout: 240_000 }, async () => {
    const data = await shared();
    const [api, w1, w2] = await Promise.all([start(data, 'api'), start(data, 'worker'), start(data, 'worker')]);
    const png = await discPng();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await postUpload(api.url, data.key, i % 2 ? 'card' : 'points', png);
      expect(response.status).toBe(202);
      ids.push(((await response.json()) as JobDocument).id);
    }
    for (const id of ids) expect(await waitForJob(api.url, data.key, id, 3000)).toMatchObject({ status: 'succeeded', progress: 100 });

    const runs = [...w1.logs, ...w2.logs].filter((l) => l.msg === 'job started').map((l) => l.job as string);
    expect(runs.sort()).toEqual([...ids].sort());
    expect(w1.logs.some((l) => l.msg === 'job started')).toBe(true);
    expect(w2.logs.some((l) => l.msg === 'job started')).toBe(true);
    const rows = await sql<{ id: string; attempts: number; runs: string }>(
      data.databaseUrl!,
      `SELECT j.id, j.attempts, (SELECT count(*) FROM aso.job_history h WHERE h.job_id = j.id AND h.status = 'running') AS runs FROM aso.jobs j`,
    );
    expect(rows).toHaveLength(30);
    for (const row of rows) expect({ attempts: row.attempts, runs: Number(row.runs) }).toEqual({ attempts: 1, runs: 1 });
    const download = await fetch(`${api.url}/v1/jobs/${ids[0]}/asset`, authed(data.key));
    expect(download.status).toBe(200);
  });

  it('kill -9 of a worker mid-job: its lease lapses and the other worker runs the job to the end', { timeout: 120_000 }, async () => {
    const data = await shared();
    const held = await heldImages(await discPng());
    // A short lease, so that the killed worker's job comes back within seconds.
    const lease = ['--lease-seconds', '5'];
    const [api, w1, w2] = await Promise.all([start(data, 'api'), start(data, 'worker', lease), start(data, 'worker', lease)]);
    const job = (await (await postJson(api.url, data.key, { model: 'card', image_url: held.url })).json()) as JobDocument;
    await held.requested(1);
    const first = await Promise.race([w1.waitForLog(started(job.id)).then(() => w1), w2.waitForLog(started(job.id)).then(() => w2)]);
    const other = first === w1 ? w2 : w1;
    expect(((await (await fetch(`${api.url}/v1/jobs/${job.id}`, authed(data.key))).json()) as JobDocument).status).toBe('running');
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');

    await other.waitForLog(started(job.id));
    await held.requested(2);
    held.release();
    const done = await waitForJob(api.url, data.key, job.id, 1200);
    expect(done).toMatchObject({ status: 'succeeded' });
    const steps = await history(data.databaseUrl!, job.id);
    expect(steps.map((s) => s.status)).toEqual(['queued', 'running', 'queued', 'running', 'succeeded']);
    const otherId = (other.logs.find(started(job.id))!.worker as string);
    const killedId = (first.logs.find(started(job.id))!.worker as string);
    expect(steps[1]!.worker).toBe(killedId);
    expect(steps[3]).toMatchObject({ attempt: 2, worker: otherId });
    expect(steps[4]!.worker).toBe(otherId);
  });

  it('SIGTERM of a worker mid-job hands the job back; the other worker runs it, as the same attempt', { timeout: 120_000 }, async () => {
    const data = await shared();
    const held = await heldImages(await discPng());
    const [api, w1, w2] = await Promise.all([start(data, 'api'), start(data, 'worker'), start(data, 'worker')]);
    const job = (await (await postJson(api.url, data.key, { model: 'card', image_url: held.url })).json()) as JobDocument;
    await held.requested(1);
    const first = await Promise.race([w1.waitForLog(started(job.id)).then(() => w1), w2.waitForLog(started(job.id)).then(() => w2)]);
    const other = first === w1 ? w2 : w1;
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.logs.some((l) => l.msg === 'job handed back at shutdown' && l.job === job.id)).toBe(true);
    await other.waitForLog(started(job.id));
    held.release();
    expect(await waitForJob(api.url, data.key, job.id, 1200)).toMatchObject({ status: 'succeeded' });
    const steps = await history(data.databaseUrl!, job.id);
    expect(steps.map((s) => [s.status, s.attempt])).toEqual([['queued', 0], ['running', 1], ['queued', 0], ['running', 1], ['succeeded', 1]]);
  });

  it('restart of the API process (kill -9) loses nothing: every job it accepted finishes and is served by the new process', { timeout: 120_000 }, async () => {
    const data = await shared();
    const held = await heldImages(await discPng());
    const png = await discPng();
    const [api, worker] = await Promise.all([start(data, 'api'), start(data, 'worker', ['--concurrency', '2'])]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await postJson(api.url, data.key, { model: 'card', image_url: held.url })).json()) as JobDocument).id);
    for (let i = 0; i < 3; i++) ids.push(((await (await postUpload(api.url, data.key, 'points', png)).json()) as JobDocument).id);
    await api.stop('SIGKILL');

    const again = await start(data, 'api');
    const listed = (await (await fetch(`${again.url}/v1/jobs?limit=200`, authed(data.key))).json()) as { data: JobDocument[] };
    expect(listed.data.map((j) => j.id).sort()).toEqual([...ids].sort());
    held.release();
    for (const id of ids) {
      const job = await waitForJob(again.url, data.key, id, 1200);
      expect(job.status).toBe('succeeded');
      expect((await fetch(job.download_url!, authed(data.key))).status).toBe(200);
    }
    expect(worker.logs.filter((l) => l.msg === 'job started')).toHaveLength(6);
  });

  it('two API processes answer the same job the same way; a cancel through one reaches the worker running the job', { timeout: 120_000 }, async () => {
    const data = await shared();
    const held = await heldImages(await discPng());
    const [a, b, worker] = await Promise.all([start(data, 'api'), start(data, 'api'), start(data, 'worker')]);
    const body = { model: 'card', image_url: held.url };
    const viaA = await postJson(a.url, data.key, body, { 'idempotency-key': 'same-job' });
    const viaB = await postJson(b.url, data.key, body, { 'idempotency-key': 'same-job' });
    expect([viaA.status, viaB.status]).toEqual([202, 202]);
    const job = (await viaA.json()) as JobDocument;
    expect(((await viaB.json()) as JobDocument).id).toBe(job.id);
    expect(viaB.headers.get('idempotent-replayed')).toBe('true');
    await expect(postJson(b.url, data.key, { model: 'relief', image_url: held.url }, { 'idempotency-key': 'same-job' }).then((r) => r.status)).resolves.toBe(422);

    await worker.waitForLog(started(job.id));
    const read = async (url: string): Promise<JobDocument> => (await (await fetch(`${url}/v1/jobs/${job.id}`, authed(data.key))).json()) as JobDocument;
    const [fromA, fromB] = await Promise.all([read(a.url), read(b.url)]);
    expect(fromA).toEqual(fromB);
    expect(fromA.status).toBe('running');

    const canceled = await fetch(`${b.url}/v1/jobs/${job.id}/cancel`, authed(data.key, { method: 'POST' }));
    expect(((await canceled.json()) as JobDocument).status).toBe('canceled');
    await worker.waitForLog((l) => l.msg === 'job canceled' && l.job === job.id, 10_000);
    expect(await read(a.url)).toMatchObject({ status: 'canceled', download_url: null, error: null });
    const listA = (await (await fetch(`${a.url}/v1/jobs`, authed(data.key))).json()) as { data: JobDocument[] };
    const listB = (await (await fetch(`${b.url}/v1/jobs`, authed(data.key))).json()) as { data: JobDocument[] };
    expect(listA.data.map((j) => [j.id, j.status])).toEqual(listB.data.map((j) => [j.id, j.status]));
    const steps = await history(data.databaseUrl!, job.id);
    expect(steps.map((s) => s.status)).toEqual(['queued', 'running', 'canceled']);
  });
});
