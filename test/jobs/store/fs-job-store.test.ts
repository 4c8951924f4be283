import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsJobStore } from '../../../src/jobs/store/fs-job-store.ts';
import type { JobRecord } from '../../../src/jobs/store/types.ts';

const job = (id: string, over: Partial<JobRecord> = {}): JobRecord => ({
  id,
  owner: 'key-a',
  model: 'relief',
  modelVersion: '1.0.0',
  status: 'queued',
  progress: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  attempts: 0,
  input: { kind: 'url', url: 'https://images.test/a.png' },
  idempotency: null,
  asset: null,
  error: null,
  ...over,
});

describe('FsJobStore', () => {
  let root: string;
  let n = 0;
  const fresh = async () => join(root, `store-${++n}`);
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'aso-job-store-test-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('stores a job as <id>.json and gives back copies, not its own record', async () => {
    const dir = await fresh();
    const store = await FsJobStore.open(dir);
    await store.insert(job('j1'));
    expect(JSON.parse(await readFile(join(dir, 'j1.json'), 'utf8'))).toEqual(job('j1'));
    const read = (await store.get('j1'))!;
    read.status = 'failed';
    expect((await store.get('j1'))!.status).toBe('queued');
    expect(await store.get('missing')).toBeUndefined();
  });

  it('refuses a job id twice, and an id that is not a safe file name', async () => {
    const store = await FsJobStore.open(await fresh());
    await store.insert(job('j1'));
    await expect(store.insert(job('j1'))).rejects.toThrow('job j1 exists already');
    for (const id of ['../x', 'a.b', '', 'x'.repeat(101)]) await expect(store.insert(job(id))).rejects.toThrow(`job id "${id}" is not a safe file name`);
  });

  it('applies an update with a fresh updatedAt, on disk too, and refuses an unknown job', async () => {
    const dir = await fresh();
    const store = await FsJobStore.open(dir);
    await store.insert(job('j1'));
    const updated = await store.update('j1', { status: 'running', progress: 10 });
    expect(updated).toMatchObject({ status: 'running', progress: 10, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(updated.updatedAt > '2026-01-01T00:00:00.000Z').toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'j1.json'), 'utf8'))).toEqual(updated);
    await expect(store.update('nope', { progress: 1 })).rejects.toThrow('job nope does not exist');
  });

  it('applies concurrent updates of one job in order, each over the last', async () => {
    const dir = await fresh();
    const store = await FsJobStore.open(dir);
    await store.insert(job('j1'));
    const updates = Array.from({ length: 20 }, (_, i) => store.update('j1', i % 2 ? { progress: i } : { attempts: i }));
    const results = await Promise.all(updates);
    expect(results.map((r) => [r.attempts, r.progress])).toEqual(Array.from({ length: 20 }, (_, i) => [i % 2 ? i - 1 : i, i % 2 ? i : Math.max(0, i - 1)]));
    expect(JSON.parse(await readFile(join(dir, 'j1.json'), 'utf8'))).toMatchObject({ attempts: 18, progress: 19 });
    await store.close();
  });

  it("lists an owner's jobs newest first up to a limit, and the jobs in a status oldest first", async () => {
    const store = await FsJobStore.open(await fresh());
    await store.insert(job('a', { createdAt: '2026-01-02T00:00:00.000Z' }));
    await store.insert(job('b', { createdAt: '2026-01-03T00:00:00.000Z', status: 'running' }));
    await store.insert(job('c', { createdAt: '2026-01-01T00:00:00.000Z' }));
    await store.insert(job('d', { createdAt: '2026-01-02T00:00:00.000Z' }));
    await store.insert(job('e', { createdAt: '2026-01-05T00:00:00.000Z', owner: 'key-b' }));
    expect((await store.listByOwner('key-a', 10)).map((j) => j.id)).toEqual(['b', 'd', 'a', 'c']);
    expect((await store.listByOwner('key-a', 2)).map((j) => j.id)).toEqual(['b', 'd']);
    expect((await store.listByOwner('key-c', 10)).map((j) => j.id)).toEqual([]);
    expect((await store.listByStatus('queued')).map((j) => j.id)).toEqual(['c', 'a', 'd', 'e']);
    expect((await store.listByStatus('running')).map((j) => j.id)).toEqual(['b']);
  });

  it("finds a job by an owner's Idempotency-Key, and only that owner's", async () => {
    const store = await FsJobStore.open(await fresh());
    await store.insert(job('a', { idempotency: { key: 'k1', requestHash: 'h' } }));
    await store.insert(job('b', { owner: 'key-b', idempotency: { key: 'k2', requestHash: 'h' } }));
    expect((await store.findByIdempotencyKey('key-a', 'k1'))?.id).toBe('a');
    expect(await store.findByIdempotencyKey('key-a', 'k2')).toBeUndefined();
    expect(await store.findByIdempotencyKey('key-b', 'k1')).toBeUndefined();
  });

  it('loads every record when it opens again', async () => {
    const dir = await fresh();
    const first = await FsJobStore.open(dir);
    await first.insert(job('a'));
    await first.insert(job('b'));
    await first.update('b', { status: 'succeeded', progress: 100 });
    await first.close();
    const again = await FsJobStore.open(dir);
    expect((await again.listByStatus('succeeded')).map((j) => j.id)).toEqual(['b']);
    expect((await again.get('a'))!.status).toBe('queued');
  });

  it('sets aside unreadable files and records under the wrong name, says so, and removes temporary files', async () => {
    const dir = await fresh();
    const first = await FsJobStore.open(dir);
    await first.insert(job('good'));
    await writeFile(join(dir, 'broken.json'), '{"id": "broken", ');
    await writeFile(join(dir, 'renamed.json'), JSON.stringify(job('other')));
    await writeFile(join(dir, 'array.json'), '[]');
    await writeFile(join(dir, '.good.json.0123456789ab.tmp'), 'half');
    await writeFile(join(dir, 'notes.txt'), 'left alone');
    const warnings: string[] = [];
    const store = await FsJobStore.open(dir, { warn: (w) => void warnings.push(w) });
    expect((await readdir(dir)).sort()).toEqual(['array.json.corrupt', 'broken.json.corrupt', 'good.json', 'notes.txt', 'renamed.json.corrupt']);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toBe(`job file ${join(dir, 'array.json')} is unreadable (not a job record); moved aside to array.json.corrupt`);
    expect(warnings[1]).toMatch(/^job file .*broken\.json is unreadable \(.*JSON.*\); moved aside to broken\.json\.corrupt$/);
    expect((await store.listByStatus('queued')).map((j) => j.id)).toEqual(['good']);
  });
});
