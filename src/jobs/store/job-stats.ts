/** Counts per status and duration histograms per model, computed from job records (the file store's way; Postgres computes the same in SQL). */
import { DURATION_BUCKETS, type JobRecord, type JobStats, type JobStatus } from './types.ts';

/** An all-zero count per status. */
export function emptyStatusCounts(): Record<JobStatus, number> {
  return { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0 };
}

/** The stats of `jobs`. */
export function statsOf(jobs: Iterable<JobRecord>): JobStats {
  const byStatus = emptyStatusCounts();
  const perModel = new Map<string, { count: number; sumSeconds: number; buckets: number[] }>();
  for (const job of jobs) {
    byStatus[job.status] += 1;
    if (job.status !== 'succeeded' || !job.startedAt || !job.finishedAt) continue;
    const seconds = Math.max(0, (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000);
    let entry = perModel.get(job.model);
    if (!entry) perModel.set(job.model, (entry = { count: 0, sumSeconds: 0, buckets: DURATION_BUCKETS.map(() => 0) }));
    entry.count += 1;
    entry.sumSeconds += seconds;
    DURATION_BUCKETS.forEach((le, i) => {
      if (seconds <= le) entry.buckets[i]! += 1;
    });
  }
  const durations = [...perModel.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([model, e]) => ({ model, count: e.count, sumSeconds: e.sumSeconds, buckets: DURATION_BUCKETS.map((le, i) => ({ le, count: e.buckets[i]! })) }));
  return { byStatus, durations };
}
