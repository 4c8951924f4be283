/** Interrupted and timed-out jobs keep a state file; `--resume <job id>` finishes them without submitting again. */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishError } from '../../src/publish/publish-error.ts';
import type { Manifest } from '@aso-registry/core/format/types';
import { runCheck } from '../../scripts/check.ts';
import { createRepo, photoPng, publish, recordIo, REGISTRY_URL, snapshot, startService, type TestRepo } from './helpers.ts';

let repo: TestRepo;
let dataDir: string;

beforeAll(async () => {
  repo = await createRepo();
  dataDir = await mkdtemp(join(tmpdir(), 'aso-publish-resume-jobs-'));
  await writeFile(repo.path('photo.png'), await photoPng(30, 30));
});
afterAll(async () => {
  await repo?.remove();
  await rm(dataDir, { recursive: true, force: true });
});

async function jobCount(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/jobs`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { data: unknown[] }).data.length;
}

describe('--resume', () => {
  it('Ctrl-C while waiting keeps the job; --resume finishes it on the same job, against a restarted service', async () => {
    // A service that takes jobs but does not run them yet: the job waits in the queue.
    const first = await startService({ processJobs: false }, dataDir);
    const before = await snapshot(repo);
    const controller = new AbortController();
    const io = recordIo((line) => {
      if (line.includes('wait for job')) controller.abort(new Error('SIGINT received'));
    });
    let error: PublishError | undefined;
    try {
      await publish(repo, { url: first.service.url, key: first.key }, { image: 'photo.png', model: 'relief', object: 'lamp', tags: ['lamp'], signal: controller.signal }, io);
    } catch (e) {
      error = e as PublishError;
    }
    await first.close();
    expect(error).toBeInstanceOf(PublishError);
    expect(error!.exitCode).toBe(130);
    expect(error!.message).toMatch(/^interrupted while waiting for job [0-9a-f-]{36}$/);
    const jobId = error!.resumeJobId!;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await snapshot(repo)).toBe(before);
    const state = JSON.parse(await readFile(join(repo.stateDir, `${jobId}.json`), 'utf8'));
    expect(state).toMatchObject({ jobId, object: 'lamp', version: '1.0.0', model: 'relief', tags: ['lamp'] });
    expect(JSON.stringify(state)).not.toContain(first.key);

    // The photo may be gone by now: the state keeps its own copy.
    await rm(repo.path('photo.png'));
    const second = await startService({}, dataDir);
    try {
      const io2 = recordIo();
      const result = await publish(repo, { url: second.service.url, key: first.key }, { resume: jobId }, io2);
      expect(result).toMatchObject({ id: 'lamp', version: '1.0.0', jobId, branch: 'publish/lamp/1.0.0' });
      expect(io2.lines.some((l) => l.startsWith('[2/8] resume job'))).toBe(true);
      // Keys live in the data folder: the first run's key still owns the job, and there is only that job.
      expect(await jobCount(second.service.url, first.key)).toBe(1);
      const manifest = JSON.parse(await readFile(repo.path('registry', 'objects', 'lamp', 'versions', '1.0.0', 'aso.object.json'), 'utf8')) as Manifest;
      expect((manifest.provenance.pipeline as { runId: string }).runId).toBe(jobId);
      await expect(stat(join(repo.stateDir, `${jobId}.json`))).rejects.toThrow();
      expect((await runCheck([], { REGISTRY_URL }, repo.dir)).code).toBe(0);
      // Published: a second resume has nothing to do.
      await expect(publish(repo, null, { resume: jobId })).rejects.toThrow(`--resume ${jobId}: no state file`);
    } finally {
      await second.close();
      await writeFile(repo.path('photo.png'), await photoPng(30, 30));
    }
  });

  it('a job that does not finish in time: a timeout naming the job, kept for --resume', async () => {
    await repo.git('switch', '-q', 'main');
    const idle = await startService({ processJobs: false });
    try {
      const before = await snapshot(repo);
      const error = await publish(repo, { url: idle.service.url, key: idle.key }, { image: 'photo.png', model: 'card', object: 'desk', timeoutMs: 400 }).catch((e: PublishError) => e);
      expect(error).toBeInstanceOf(PublishError);
      expect((error as PublishError).message).toMatch(/^job [0-9a-f-]{36} did not finish within 0\.4 s \(last seen queued, 0%\)$/);
      expect((error as PublishError).resumeJobId).toBeDefined();
      expect((error as PublishError).exitCode).toBe(1);
      expect(await snapshot(repo)).toBe(before);
    } finally {
      await idle.close();
    }
  });

  it('resume refuses settings that belong to the first run', async () => {
    await expect(publish(repo, null, { resume: 'abc', model: 'relief' })).rejects.toThrow("--resume takes the settings of the job's first run; leave out --model");
    await expect(publish(repo, null, { resume: '../x' })).rejects.toThrow('"../x" is not a job id');
  });
});
