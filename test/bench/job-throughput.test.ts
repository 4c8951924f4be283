/** Smoke test of `npm run bench -- --jobs`: one tiny run per backend with the real processes, and the table. */
import { describe, expect, it } from 'vitest';
import { formatThroughput, measureJobThroughput } from '../../src/bench/job-throughput.ts';
import { freshDatabase } from '../support/postgres.ts';

describe('measureJobThroughput', () => {
  it('runs jobs through the data folder and through Postgres and reports jobs per second', { timeout: 180_000 }, async () => {
    const lines: string[] = [];
    const runs = await measureJobThroughput({ jobs: 3, workers: [1], log: (l) => lines.push(l), createDatabase: () => freshDatabase('bench') });
    expect(runs.map((r) => [r.backend, r.workers, r.jobs])).toEqual([
      ['files', 1, 3],
      ['postgres', 1, 3],
    ]);
    for (const r of runs) {
      expect(r.seconds).toBeGreaterThan(0);
      expect(r.jobsPerSecond).toBeCloseTo(3 / r.seconds, 6);
    }
    expect(lines).toHaveLength(2);
    const table = formatThroughput(runs);
    expect(table.split('\n').slice(0, 2)).toEqual(['| backend | workers | jobs | seconds | jobs/s |', '|---|---:|---:|---:|---:|']);
    expect(table).toMatch(/^\| data folder \| 1 \| 3 \| \d+\.\d\d \| \d+\.\d \|$/m);
    expect(table).toMatch(/^\| Postgres \| 1 \| 3 \| \d+\.\d\d \| \d+\.\d \|$/m);
  });
});
