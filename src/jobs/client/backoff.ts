/** Waiting between attempts: exponential backoff with full jitter, and the `Retry-After` header. */

/** How long to wait between attempts. */
export interface BackoffOptions {
  /** The first delay in milliseconds. */
  initialMs: number;
  /** The longest delay in milliseconds. */
  maxMs: number;
  /** Growth per attempt. */
  factor: number;
}

/** Defaults for retried requests. */
export const RETRY_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5_000, factor: 2 };

/** Defaults for polling a job. */
export const POLL_BACKOFF: BackoffOptions = { initialMs: 300, maxMs: 5_000, factor: 1.5 };

/**
 * The delay before attempt `attempt + 1` (0-based): a random value between half and all of
 * `initialMs * factor^attempt`, capped at `maxMs`, so that many clients do not poll in step.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.initialMs * options.factor ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The delay a `Retry-After` header asks for (seconds or an HTTP date), in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with the day's name; Date.parse alone would read "1.5" or "-5" as dates long past.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, when - now);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
