/** Bounded concurrency for file work: many files at once keep the disk busy without opening them all. */
import pLimit from 'p-limit';

/** Runs `task` over `items` with at most `limit` running at a time; rejects with the first failure. */
export async function eachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const run = pLimit(Math.max(1, limit));
  await Promise.all(items.map((item) => run(() => task(item))));
}
