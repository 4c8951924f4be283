import { describe, expect, it } from 'vitest';
import { createLimit } from '../../src/io/limit.ts';

/** Runs `count` tasks through a limit and records the most that ran at once. */
async function peak(limitTo: number, count: number): Promise<{ peak: number; results: number[] }> {
  const limit = createLimit(limitTo);
  let running = 0;
  let most = 0;
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limit(async () => {
        running++;
        most = Math.max(most, running);
        for (let k = 0; k < 3; k++) await Promise.resolve();
        running--;
        return i;
      }),
    ),
  );
  return { peak: most, results };
}

describe('createLimit', () => {
  it('runs at most n tasks at once and keeps every result in order', async () => {
    const { peak: most, results } = await peak(3, 20);
    expect(most).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('treats 0 or less as 1', async () => {
    expect((await peak(0, 5)).peak).toBe(1);
  });

  it('goes on after a task fails', async () => {
    const limit = createLimit(1);
    const failed = limit(() => Promise.reject(new Error('boom')));
    const next = limit(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });
});
