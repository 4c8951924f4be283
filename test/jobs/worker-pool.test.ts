import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runModel } from '../../src/jobs/models/run-model.ts';
import { TaskError, WorkerPool } from '../../src/jobs/service/worker-pool.ts';
import { discPng } from './helpers.ts';

const pools: WorkerPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

function pool(size: number): WorkerPool {
  const p = new WorkerPool({ size });
  pools.push(p);
  return p;
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('the model worker pool', () => {
  it('runs a model on a thread: the same bytes as in-process, with progress', async () => {
    const png = await discPng();
    const fractions: number[] = [];
    const bytes = await pool(1).run({ model: 'relief', image: png, timeoutMs: 60_000, onProgress: (f) => fractions.push(f) });
    expect(sha(bytes)).toBe(sha(await runModel('relief', png)));
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions.every((f) => f >= 0 && f <= 1)).toBe(true);
  });

  it('runs at most `size` threads at once and finishes every task', async () => {
    const png = await discPng();
    const p = pool(2);
    let most = 0;
    const runs = Array.from({ length: 5 }, () => p.run({ model: 'card', image: png, timeoutMs: 60_000, onProgress: () => (most = Math.max(most, p.threads)) }));
    const results = await Promise.all(runs);
    expect(new Set(results.map(sha)).size).toBe(1);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('a model error keeps its code and message across the thread', async () => {
    const p = pool(1);
    const err = await p.run({ model: 'card', image: new TextEncoder().encode('not an image'), timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect(err).toMatchObject({ code: 'invalid_image' });
    const unknown = await p.run({ model: 'nope', image: await discPng(), timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'model_failed', message: expect.stringContaining('unknown model "nope"') });
  });

  it('aborting a running task stops it with the signal reason; the pool goes on', async () => {
    const png = await discPng(2000, 1500);
    const p = pool(1);
    const controller = new AbortController();
    const running = p.run({ model: 'lithophane', image: png, timeoutMs: 60_000, signal: controller.signal, onProgress: () => controller.abort(new Error('stop now')) });
    await expect(running).rejects.toThrow('stop now');
    const before = new AbortController();
    before.abort('canceled');
    await expect(p.run({ model: 'card', image: png, timeoutMs: 60_000, signal: before.signal })).rejects.toMatchObject({ code: 'canceled' });
    expect((await p.run({ model: 'card', image: await discPng(), timeoutMs: 60_000 })).length).toBeGreaterThan(0);
  });

  it('a run over its time limit fails with code timeout', async () => {
    const err = await pool(1).run({ model: 'relief', image: await discPng(), timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout', message: 'the model ran longer than 1 ms' });
  });

  it('a closed pool refuses work', async () => {
    const p = pool(1);
    await p.close();
    await expect(p.run({ model: 'card', image: await discPng(), timeoutMs: 1000 })).rejects.toMatchObject({ code: 'shutdown' });
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new WorkerPool({ size: 0 })).toThrow('positive integer');
  });
});
