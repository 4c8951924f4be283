import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { openBackend } from '../../src/jobs/store/backend.ts';
import { dataPaths } from '../../src/jobs/store/data-dir.ts';
import type { JobStore } from '../../src/jobs/store/types.ts';
import { authed, BACKENDS, discPng, postJson, postUpload, startImageServer, startTestService, testData, waitForJob, type BackendKind, type TestData, type TestService } from './helpers.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function data(backend: BackendKind): Promise<TestData> {
  const made = await testData(backend);
  cleanups.push(made.remove);
  return made;
}

async function start(at: TestData, options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const svc = await startTestService(options, at);
  cleanups.push(() => svc.service.close());
  return svc;
}

/** Opens the stores of `at` directly, as another process would, runs `work` on the job store and closes them. */
async function withJobStore<T>(at: TestData, work: (jobs: JobStore) => Promise<T>): Promise<T> {
  const backend = await openBackend({ dataDir: at.dataDir, databaseUrl: at.databaseUrl });
  try {
    return await work(backend.jobs);
  } finally {
    await backend.close();
  }
}

/** An image server that holds every request until `release()`; `requested` resolves when the first request arrives. */
async function heldImageServer(png: Uint8Array) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let arrived!: () => void;
  const requested = new Promise<void>((r) => (arrived = r));
  const server = await startImageServer((_req, res) => {
    arrived();
    void released.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  });
  cleanups.push(async () => {
    release();
    await server.close();
  });
  return { url: `${server.url}/held.png`, requested, release };
}

describe.each(BACKENDS)('durability of jobs, assets and keys (%s)', (backend) => {
  it('queued jobs, finished assets and keys survive a restart', async () => {
    const dir = await data(backend);
    const png = await discPng();
    const first = await start(dir);
    const done = await waitForJob(first.url, first.key, ((await (await postUpload(first.url, first.key, 'relief', png)).json()) as JobDocument).id);
    expect(done.status).toBe('succeeded');
    await first.service.close();

    const idle = await start(dir, { processJobs: false });
    const queued = (await (await postUpload(idle.url, first.key, 'points', png)).json()) as JobDocument;
    expect(queued.status).toBe('queued');
    await idle.service.close();
    const second = await start(dir);
    const resumed = await waitForJob(second.url, first.key, queued.id);
    expect(resumed.status).toBe('succeeded');
    const download = await fetch(`${second.url}/v1/jobs/${done.id}/asset`, authed(first.key));
    expect(download.status).toBe(200);
    expect(download.headers.get('x-content-sha256')).toBe(done.asset!.sha256);
    expect(Number(download.headers.get('content-length'))).toBe(done.asset!.byte_length);
    expect((await download.arrayBuffer()).byteLength).toBe(done.asset!.byte_length);
  });

  it('a job left running by a crash is taken up again, and failed with a reason after too many attempts', async () => {
    const dir = await data(backend);
    const png = await discPng();
    const idle = await start(dir, { processJobs: false });
    const retried = (await (await postUpload(idle.url, idle.key, 'card', png)).json()) as JobDocument;
    const exhausted = (await (await postUpload(idle.url, idle.key, 'card', png)).json()) as JobDocument;
    await idle.service.close();

    // What a killed service leaves behind: records still marked running, under a lease that lapsed.
    const lapsed = { owner: 'killed-worker', until: new Date(Date.now() - 1000).toISOString() };
    await withJobStore(dir, async (store) => {
      await store.update(retried.id, { status: 'running', attempts: 1, progress: 40, lease: lapsed });
      await store.update(exhausted.id, { status: 'running', attempts: 2, progress: 40, lease: lapsed });
    });

    const svc = await start(dir);
    expect(await waitForJob(svc.url, idle.key, retried.id)).toMatchObject({ status: 'succeeded', progress: 100 });
    const failed = await waitForJob(svc.url, idle.key, exhausted.id);
    expect(failed).toMatchObject({ status: 'failed', download_url: null, error: { code: 'interrupted' } });
    expect(failed.error!.message).toContain('stopped while the job was running');
  });

  it('closing the service while a job runs puts it back in the queue; the next start finishes it', async () => {
    const dir = await data(backend);
    const held = await heldImageServer(await discPng());
    const first = await start(dir);
    const job = (await (await postJson(first.url, first.key, { model: 'lithophane', image_url: held.url })).json()) as JobDocument;
    await held.requested;
    expect(((await (await fetch(`${first.url}/v1/jobs/${job.id}`, authed(first.key))).json()) as JobDocument).status).toBe('running');
    await first.service.close();
    expect(await withJobStore(dir, (store) => store.get(job.id))).toMatchObject({ status: 'queued', attempts: 0, lease: null });
    held.release();
    const second = await start(dir);
    expect(await waitForJob(second.url, first.key, job.id)).toMatchObject({ status: 'succeeded' });
  });

  it('cancels queued and running jobs', async () => {
    const dir = await data(backend);
    const held = await heldImageServer(await discPng());
    const svc = await start(dir, { concurrency: 1 });
    const running = (await (await postJson(svc.url, svc.key, { model: 'card', image_url: held.url })).json()) as JobDocument;
    const queued = (await (await postUpload(svc.url, svc.key, 'card', await discPng())).json()) as JobDocument;
    await held.requested;
    const cancelQueued = await fetch(`${svc.url}/v1/jobs/${queued.id}/cancel`, authed(svc.key, { method: 'POST' }));
    expect(cancelQueued.status).toBe(200);
    expect(((await cancelQueued.json()) as JobDocument).status).toBe('canceled');
    const cancelRunning = await fetch(`${svc.url}/v1/jobs/${running.id}/cancel`, authed(svc.key, { method: 'POST' }));
    expect(((await cancelRunning.json()) as JobDocument).status).toBe('canceled');
    const again = await fetch(`${svc.url}/v1/jobs/${running.id}/cancel`, authed(svc.key, { method: 'POST' }));
    expect(((await again.json()) as JobDocument).status).toBe('canceled');
    const after = await fetch(`${svc.url}/v1/jobs/${queued.id}`, authed(svc.key));
    expect(((await after.json()) as JobDocument)).toMatchObject({ status: 'canceled', download_url: null, error: null });
  });
});

describe('the data folder', () => {
  it('refuses a second service on the same data folder, takes over a stale lock, sets aside an unreadable job file', async () => {
    const dir = await data('files');
    const svc = await start(dir);
    await expect(startTestService({}, dir)).rejects.toThrow(/in use by another job service/);
    await svc.service.close();
    // A lock left by a process that is gone (or by this process id before a restart) is taken over.
    await writeFile(dataPaths(dir.dataDir).lock, `${process.pid}\n`);
    await writeFile(join(dataPaths(dir.dataDir).jobs, 'broken.json'), '{"id": "broken", "stat');
    const again = await start(dir);
    expect((await fetch(`${again.url}/v1/jobs`, authed(again.key))).status).toBe(200);
    expect(await readdir(dataPaths(dir.dataDir).jobs)).toContain('broken.json.corrupt');
  });
});
