import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, retryDelay } from '../../../src/jobs/webhooks/retry-schedule.ts';

describe('retryDelay', () => {
  it('retries first within 30 s, then with growing delays for more than an hour, then gives up', () => {
    expect(DEFAULT_RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(30_000);
    for (let i = 1; i < DEFAULT_RETRY_DELAYS_MS.length; i++) expect(DEFAULT_RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(DEFAULT_RETRY_DELAYS_MS[i - 1]!);
    expect(DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(3_600_000);
    expect(retryDelay(1, DEFAULT_RETRY_DELAYS_MS, undefined, () => 0)).toBe(5_000);
    expect(retryDelay(DEFAULT_RETRY_DELAYS_MS.length, DEFAULT_RETRY_DELAYS_MS, undefined, () => 0)).toBe(86_400_000);
    expect(retryDelay(DEFAULT_RETRY_DELAYS_MS.length + 1, DEFAULT_RETRY_DELAYS_MS)).toBeUndefined();
    expect(retryDelay(1, [])).toBeUndefined();
  });

  it('adds up to a tenth at random, and waits as long as Retry-After asks, up to the longest delay', () => {
    expect(retryDelay(1, [1000], undefined, () => 0.999)).toBe(1100);
    expect(retryDelay(1, [1000], 60_000, () => 0)).toBe(1000);
    expect(retryDelay(1, [1000, 30_000], 20_000, () => 0)).toBe(20_000);
    expect(retryDelay(1, [1000], 500, () => 0)).toBe(1000);
  });
});
