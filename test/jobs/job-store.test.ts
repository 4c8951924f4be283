import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openBackend } from '../../src/jobs/store/backend.ts';
import type { Backend } from '../../src/jobs/store/types.ts';
import { IdempotencyConflict, type JobRecord } from '../../src/jobs/store/types.ts';
import { BACKENDS, testData, type BackendKind } from './helpers.ts';

/** The job store contract, on both backends: the transitions that decide who runs a job. */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A backend over fresh data whose queue records what it was handed instead of running it. */
async function open(kind: BackendKind): Promise<{ backend: Backend; delivered: string[] }> {
  const data = await testData(kind);
  const backend = await openBackend(data);
  cleanups.push(async () => {
    await backend.close();
    await data.remove();
  });
  const delivered: string[] = [];
  backend.queue.consume(async (id) => void delivered.push(id), 4);
  return { backend, delivered };
}

function job(overrides: Partial<JobRecord> = {}): JobRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    owner: 'key_owner',
    model: 'card',
    modelVersion: '1.0.0',
    status: 'queued',
    progress: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    attempts: 0,
    input: { kind: 'url', url: 'http://example.com/a.png' },
    idempotency: null,
    asset: null,
    error: null,
    ...overrides,
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
}

describe.each(BACKENDS)('the job store (%s)', (kind) => {
  it('insert queues the job; a second job with the same idempotency key is refused', async () => {
    const { backend, delivered } = await open(kind);
    const first = job({ idempotency: { key: 'k1', requestHash: 'h' } });
    await backend.jobs.insert(first);
    await until(() => delivered.includes(first.id));
    expect(await backend.jobs.get(first.id)).toMatchObject({ id: first.id, status: 'queued', input: first.input, idempotency: first.idempotency });
    await expect(backend.jobs.insert(job({ idempotency: { key: 'k1', requestHash: 'h2' } }))).rejects.toBeInstanceOf(IdempotencyConflict);
    await backend.jobs.insert(job({ owner: 'key_other', idempotency: { key: 'k1', requestHash: 'h' } }));
    expect((await backend.jobs.findByIdempotencyKey('key_owner', 'k1'))?.id).toBe(first.id);
  });

  it('claim: one worker wins a queued job and counts the attempt; the other gets nothing', async () => {
    const { backend } = await open(kind);
    const j = job();
    await backend.jobs.insert(j);
    const [a, b] = await Promise.all([backend.jobs.claim(j.id, 'worker-a', 10_000), backend.jobs.claim(j.id, 'worker-b', 10_000)]);
    const winners = [a, b].filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'running', attempts: 1, progress: 1 });
    expect(winners[0]!.lease?.owner).toMatch(/^worker-[ab]$/);
    expect(Date.parse(winners[0]!.lease!.until)).toBeGreaterThan(Date.now());
    expect(await backend.jobs.claim(randomUUID(), 'worker-a', 1000)).toBeUndefined();
  });

  it('updateHeld and renew work only for the lease holder; a final status ends the lease', async () => {
    const { backend } = await open(kind);
    const j = job();
    await backend.jobs.insert(j);
    await backend.jobs.claim(j.id, 'holder', 10_000);
    expect(await backend.jobs.updateHeld(j.id, 'intruder', { progress: 50 })).toBeUndefined();
    expect(await backend.jobs.renew('intruder', [j.id], 10_000)).toEqual([]);
    expect(await backend.jobs.renew('holder', [j.id], 10_000)).toEqual([j.id]);
    expect(await backend.jobs.updateHeld(j.id, 'holder', { progress: 50 })).toMatchObject({ progress: 50, status: 'running' });
    const done = await backend.jobs.updateHeld(j.id, 'holder', { status: 'failed', error: { code: 'x', message: 'y' }, finishedAt: new Date().toISOString() });
    expect(done).toMatchObject({ status: 'failed', lease: null, error: { code: 'x', message: 'y' } });
    expect(await backend.jobs.updateHeld(j.id, 'holder', { status: 'succeeded' })).toBeUndefined();
  });

  it('handing a job back queues it again for the queue', async () => {
    const { backend, delivered } = await open(kind);
    const j = job();
    await backend.jobs.insert(j);
    await until(() => delivered.length === 1);
    await backend.jobs.claim(j.id, 'w', 10_000);
    expect(await backend.jobs.updateHeld(j.id, 'w', { status: 'queued', attempts: 0, progress: 0, startedAt: null })).toMatchObject({ status: 'queued', lease: null });
    await until(() => delivered.length === 2);
    expect(delivered).toEqual([j.id, j.id]);
  });

  it('cancel: a queued or running job is canceled and loses its lease; a finished one is returned as it is', async () => {
    const { backend } = await open(kind);
    const queued = job();
    const running = job();
    const finished = job();
    for (const j of [queued, running, finished]) await backend.jobs.insert(j);
    await backend.jobs.claim(running.id, 'w', 10_000);
    await backend.jobs.claim(finished.id, 'w', 10_000);
    await backend.jobs.updateHeld(finished.id, 'w', { status: 'succeeded' });
    expect(await backend.jobs.cancel(queued.id)).toMatchObject({ status: 'canceled' });
    expect(await backend.jobs.cancel(running.id)).toMatchObject({ status: 'canceled', lease: null });
    expect(await backend.jobs.updateHeld(running.id, 'w', { status: 'succeeded' })).toBeUndefined();
    expect(await backend.jobs.cancel(finished.id)).toMatchObject({ status: 'succeeded' });
    expect(await backend.jobs.cancel(randomUUID())).toBeUndefined();
  });

  it('reclaim: a lapsed lease goes back to the queue, or fails as interrupted after the last attempt; a live lease stays', async () => {
    const { backend, delivered } = await open(kind);
    const lapsed = job();
    const exhausted = job();
    const live = job();
    for (const j of [lapsed, exhausted, live]) await backend.jobs.insert(j);
    await until(() => delivered.length === 3);
    await backend.jobs.claim(lapsed.id, 'gone', 1);
    await backend.jobs.claim(live.id, 'alive', 60_000);
    await backend.jobs.claim(exhausted.id, 'gone', 1);
    await backend.jobs.update(exhausted.id, { attempts: 2 });
    await new Promise((r) => setTimeout(r, 20));
    const result = await backend.jobs.reclaim({ all: false, maxAttempts: 2 });
    expect(result.requeued.map((j) => j.id)).toEqual([lapsed.id]);
    expect(result.failed.map((j) => j.id)).toEqual([exhausted.id]);
    expect(await backend.jobs.get(exhausted.id)).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect(await backend.jobs.get(lapsed.id)).toMatchObject({ status: 'queued', attempts: 1, lease: null });
    expect(await backend.jobs.get(live.id)).toMatchObject({ status: 'running' });
    await until(() => delivered.length === 4);
    const everything = await backend.jobs.reclaim({ all: true, maxAttempts: 2 });
    expect(everything.requeued.map((j) => j.id)).toEqual([live.id]);
  });

  it('stats: counts per status and durations of succeeded jobs per model', async () => {
    const { backend } = await open(kind);
    const a = job({ model: 'card' });
    const b = job({ model: 'points' });
    await backend.jobs.insert(a);
    await backend.jobs.insert(b);
    await backend.jobs.claim(a.id, 'w', 10_000);
    const started = Date.parse((await backend.jobs.get(a.id))!.startedAt!);
    await backend.jobs.updateHeld(a.id, 'w', { status: 'succeeded', finishedAt: new Date(started + 400).toISOString() });
    const stats = await backend.jobs.stats();
    expect(stats.byStatus).toEqual({ queued: 1, running: 0, succeeded: 1, failed: 0, canceled: 0 });
    expect(stats.durations).toHaveLength(1);
    const card = stats.durations[0]!;
    expect(card.model).toBe('card');
    expect(card.count).toBe(1);
    expect(card.sumSeconds).toBeCloseTo(0.4, 2);
    expect(card.buckets.find((x) => x.le === 0.25)!.count).toBe(0);
    expect(card.buckets.find((x) => x.le === 0.5)!.count).toBe(1);
  });
});
