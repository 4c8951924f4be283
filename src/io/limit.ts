/** A concurrency limit: at most `n` tasks given to the returned function run at once, the rest wait in order. */
export type Limit = <T>(task: () => Promise<T>) => Promise<T>;

/** Creates a limit of `n` (at least 1) tasks at a time. */
export function createLimit(n: number): Limit {
  const max = Math.max(1, Math.floor(n) || 1);
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    running--;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
