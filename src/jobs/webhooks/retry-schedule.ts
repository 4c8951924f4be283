/** When a failed webhook delivery is tried again: the example schedule of the Standard Webhooks specification, with jitter and the receiver's Retry-After. */

/** The delays after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (about three days in all). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];

/** The share of a delay added at random, so that deliveries that failed together are not all sent again together. */
const JITTER = 0.1;

/**
 * The delay before the attempt after `attempts` failed ones, or undefined once the schedule is spent. A receiver's
 * `Retry-After` lengthens it, up to the longest delay of the schedule.
 */
export function retryDelay(attempts: number, delays: readonly number[], retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  const base = delays[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = Math.round(base * (1 + JITTER * random()));
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, Math.max(...delays)));
}
