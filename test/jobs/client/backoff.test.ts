import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs, sleep } from '../../../src/jobs/client/backoff.ts';

describe('backoffDelay', () => {
  const options = { initialMs: 100, maxMs: 1000, factor: 2 };

  it('grows by the factor, stays between half and all of the step, and is capped', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, options, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, options, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(2, options, () => 0.5)).toBe(300);
  });

  it('treats a negative attempt as the first', () => {
    expect(backoffDelay(-3, options, () => 1)).toBe(100);
  });

  it('spreads delays with the default random source', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelay(3, options));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(400);
    expect(Math.max(...delays)).toBeLessThanOrEqual(800);
    expect(new Set(delays).size).toBeGreaterThan(10);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, trimmed', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(' 7 ')).toBe(7000);
    expect(retryAfterMs('0')).toBe(0);
  });

  it('reads an HTTP date as the time left, never negative', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('Thursday, 01-Jan-26 00:00:02 GMT', now)).toBe(2000);
  });

  it('is undefined when absent or unreadable, rather than a date long past (no retry at once)', () => {
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-5')).toBeUndefined();
    expect(retryAfterMs('1.5')).toBeUndefined();
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    const start = performance.now();
    await sleep(30);
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it("rejects with the signal's reason when it is aborted already or aborts while waiting", async () => {
    await expect(sleep(10, AbortSignal.abort(new Error('stop now')))).rejects.toThrow('stop now');
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(new Error('Ctrl-C')), 10);
    await expect(waiting).rejects.toThrow('Ctrl-C');
  });

  it('resolves normally with a signal that never aborts', async () => {
    await expect(sleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});
