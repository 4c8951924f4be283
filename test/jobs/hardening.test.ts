/**
 * The job service under a careless or hostile client: malformed bodies are 400, floods without a key or with a wrong
 * one are rate-limited, a corrupt key store stops the start with a message naming the file, a cancel that meets the
 * runner taking up the job is never lost, and the queue's worker loop never swallows an error.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobService } from '../../src/jobs/service/index.ts';
import { JobRunner } from '../../src/jobs/service/job-runner.ts';
import { DEFAULT_LIMITS } from '../../src/jobs/service/options.ts';
import { WorkerPool } from '../../src/jobs/service/worker-pool.ts';
import { dataPaths } from '../../src/jobs/store/data-dir.ts';
import { FsBlobStore } from '../../src/jobs/store/fs-blob-store.ts';
import { FsJobStore } from '../../src/jobs/store/fs-job-store.ts';
import { MemoryQueue } from '../../src/jobs/store/memory-queue.ts';
import type { JobRecord, JobStore } from '../../src/jobs/store/types.ts';
import { authed, BACKENDS, discPng, startTestService, tempDir, type TestService } from './helpers.ts';

type ErrorBody = { error: { code: string; message: string } };

describe.each(BACKENDS)('malformed multipart bodies (%s)', (backend) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ backend, processJobs: false });
  });
  afterAll(() => svc.stop());

  const post = (contentType: string, body: string | Uint8Array): Promise<Response> =>
    fetch(`${svc.url}/v1/jobs`, authed(svc.key, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]) }));

  it('answer 400 invalid_request, never 500', async () => {
    const png = await discPng();
    const head = '--b0\r\nContent-Disposition: form-data; name="model"\r\n\r\ncard\r\n--b0\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
    const cases: Array<[string, string | Uint8Array]> = [
      ['multipart/form-data', 'no boundary in the content type'],
      ['multipart/form-data; boundary=b0', 'garbage that never meets the boundary'],
      ['multipart/form-data; boundary=b0', new Uint8Array([...new TextEncoder().encode(head), ...png.subarray(0, 20)])],
      ['multipart/form-data; boundary=b0', '--b0\r\nContent-Disposition: form-data\r\n\r\nvalue without a name\r\n--b0--\r\n'],
      ['multipart/form-data; boundary=b0', '--b0\r\nno headers at all'],
      ['multipart/form-data; boundary=b0', ''],
    ];
    for (const [type, body] of cases) {
      const response = await post(type, body);
      const json = (await response.json()) as ErrorBody;
      expect({ status: response.status, code: json.error.code }, `${type} ${String(body).slice(0, 40)}`).toEqual({ status: 400, code: 'invalid_request' });
      expect(json.error.message).not.toMatch(/\n\s+at /);
    }
  });
});

describe.each(BACKENDS)('rate limits before authentication (%s)', (backend) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ backend, processJobs: false, rateLimit: { maxRequests: 3, maxCreates: 3, windowMs: 60_000 } });
  });
  afterAll(() => svc.stop());

  it('answers 429 with Retry-After to a flood without a key, and to one with wrong keys', async () => {
    const statuses = async (init: () => RequestInit): Promise<Response[]> => {
      const out: Response[] = [];
      for (let i = 0; i < 5; i++) out.push(await fetch(`${svc.url}/v1/models`, init()));
      return out;
    };
    const none = await statuses(() => ({}));
    expect(none.map((r) => r.status)).toEqual([401, 401, 401, 429, 429]);
    expect(Number(none[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await none[3]!.json()) as ErrorBody).error.code).toBe('rate_limited');
    // Every request with a new made-up key: the address is what is counted.
    let n = 0;
    const wrong = await statuses(() => authed(`aso_sk_${String(n++).padStart(43, 'x')}`));
    expect(wrong.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect(Number(wrong[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('still counts a valid key on its own', async () => {
    const other = await startTestService({ backend, processJobs: false, rateLimit: { maxRequests: 3, maxCreates: 3, windowMs: 60_000 } });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${other.url}/v1/models`)).status).toBe(401);
      // The address is used up without a key; a real key has a budget of its own.
      expect((await fetch(`${other.url}/v1/models`, authed(other.key))).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});

describe('a corrupt key store', () => {
  it('stops the start with a message that names the file', async () => {
    const dir = await tempDir();
    try {
      const keys = dataPaths(dir.path).keys;
      await mkdir(keys, { recursive: true });
      const file = join(keys, `${'a'.repeat(64)}.json`);
      await writeFile(file, '{"id": "key_1", "name": ');
      await expect(startJobService({ dataDir: dir.path, port: 0, processJobs: false })).rejects.toThrow(
        `the key store is damaged: key file ${file} is not a key record (is not valid JSON`,
      );
      await writeFile(file, JSON.stringify({ id: 'key_1', name: 'x', hash: 'b'.repeat(64), createdAt: '2026-01-01T00:00:00Z', revokedAt: null }));
      await expect(startJobService({ dataDir: dir.path, port: 0, processJobs: false })).rejects.toThrow(`key file ${file} is not a key record (its hash is not its file name)`);
      // The lock of the failed start is released.
      expect(await readdir(dir.path)).not.toContain('service.lock');
    } finally {
      await dir.remove();
    }
  });
});

describe('cancel', () => {
  it('is never lost when it meets the runner taking up the job', async () => {
    const dir = await tempDir();
    const paths = dataPaths(dir.path);
    const queue = new MemoryQueue();
    const real = await FsJobStore.open(paths.jobs, { onQueued: (id) => queue.enqueue(id) });
    const blobs = await FsBlobStore.open(paths.blobs);
    const pool = new WorkerPool({ size: 1 });
    const logs: string[] = [];
    let runner!: JobRunner;
    let started = false;
    // The real store, with the cancel's write held back until the runner has had every chance to take the job up.
    const jobs: JobStore = Object.assign(Object.create(real) as JobStore, {
      cancel: async (id: string): Promise<JobRecord | undefined> => {
        if (!started) {
          started = true;
          await runner.start(1);
          for (let i = 0; i < 20 && (await real.get(id))?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 25));
        }
        return real.cancel(id);
      },
    });
    runner = new JobRunner({
      jobs,
      blobs,
      queue,
      pool,
      limits: DEFAULT_LIMITS,
      policy: { allowLoopback: false, allowPrivate: false },
      log: (l) => logs.push(l.msg),
      exclusive: true,
      leaseMs: 30_000,
      onCancel: () => {},
    });
    try {
      const now = new Date().toISOString();
      const image = await discPng();
      const job: JobRecord = {
        id: 'race-job',
        owner: 'key_test',
        model: 'card',
        modelVersion: '1.0.0',
        status: 'queued',
        progress: 0,
        createdAt: now,
        updatedAt: now,
        startedAt: null,
        finishedAt: null,
        attempts: 0,
        input: { kind: 'upload', filename: 'a.png', byteLength: image.length, sha256: '0'.repeat(64) },
        idempotency: null,
        asset: null,
        error: null,
      };
      await runner.submit(job, image);
      const canceled = await runner.cancel(job.id);
      expect(canceled?.status).toBe('canceled');
      await runner.close();
      expect((await real.get(job.id))?.status).toBe('canceled');
    } finally {
      await runner.close();
      await dir.remove();
    }
  });
});

describe('the in-memory queue', () => {
  it('reports an error of its handler instead of swallowing it', async () => {
    const errors: Array<{ id: string; error: unknown }> = [];
    const queue = new MemoryQueue((id, error) => errors.push({ id, error }));
    queue.consume(async (id) => {
      throw new Error(`handler broke on ${id}`);
    }, 1);
    await queue.enqueue('job-1');
    await queue.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.id).toBe('job-1');
    expect((errors[0]!.error as Error).message).toBe('handler broke on job-1');
  });
});
