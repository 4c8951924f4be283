import { describe, expect, it } from 'vitest';
import { SlicedQueue } from '../../src/io/time-slices.ts';

/** Keeps the thread busy for `ms` milliseconds, as a synchronous write or hash would. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('SlicedQueue', () => {
  it('runs jobs in the order given and resolves each with what it returned', async () => {
    const queue = new SlicedQueue();
    const ran: number[] = [];
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => queue.run(() => (ran.push(i), i * 2))));
    expect(ran).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    expect(queue.pending).toBe(0);
  });

  it('lets the event loop turn between slices while thousands of jobs are queued at once', async () => {
    const queue = new SlicedQueue(4);
    let done = 0;
    // A callback the first job queues (a message from another thread, an I/O callback) runs only when the loop turns.
    let seen: Promise<number> | undefined;
    const jobs = Array.from({ length: 400 }, (_, i) =>
      queue.run(() => {
        if (i === 0) seen = new Promise((resolve) => setImmediate(() => resolve(done)));
        busy(0.1);
        return ++done;
      }),
    );
    await Promise.all(jobs);
    const seenAt = await seen!;
    // 400 jobs of at least 0.1 ms do not fit in one slice of 4 ms: the loop turned after the first slice, long before the last job.
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt).toBeLessThan(400);
    expect(done).toBe(400);
  });

  it('rejects only the job that threw, and goes on with the others', async () => {
    const queue = new SlicedQueue();
    const outcomes = await Promise.allSettled([
      queue.run(() => 1),
      queue.run(() => {
        throw new Error('no space left on device');
      }),
      queue.run(() => 3),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('no space left on device');
  });

  it('resolves a job with the promise it returns', async () => {
    const queue = new SlicedQueue();
    await expect(queue.run(async () => (await new Promise((resolve) => setImmediate(resolve)), 'later'))).resolves.toBe('later');
  });
});
