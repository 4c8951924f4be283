/** Job records in Postgres: every status change is one conditional UPDATE, so that any number of processes agree on who runs what. */
import type pg from 'pg';
import { emptyStatusCounts } from './job-stats.ts';
import { inTransaction } from './pg-pool.ts';
import { CHANNELS } from './pg-notifier.ts';
import type { PgQueue } from './pg-queue.ts';
import { DURATION_BUCKETS, IdempotencyConflict, interruptedError, type JobPatch, type JobRecord, type JobStats, type JobStatus, type JobStore, type ReclaimResult } from './types.ts';

/** A row of `aso.jobs`. */
interface JobRow {
  id: string;
  owner: string;
  model: string;
  model_version: string;
  status: JobStatus;
  progress: number;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  attempts: number;
  input: JobRecord['input'];
  idempotency_key: string | null;
  idempotency_hash: string | null;
  asset: JobRecord['asset'];
  error: JobRecord['error'];
  lease_owner: string | null;
  lease_until: Date | null;
  webhook: JobRecord['webhook'];
}

/** The record of a row. */
function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    owner: row.owner,
    model: row.model,
    modelVersion: row.model_version,
    status: row.status,
    progress: row.progress,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    attempts: row.attempts,
    input: row.input,
    idempotency: row.idempotency_key === null ? null : { key: row.idempotency_key, requestHash: row.idempotency_hash ?? '' },
    asset: row.asset,
    error: row.error,
    lease: row.lease_owner && row.lease_until ? { owner: row.lease_owner, until: row.lease_until.toISOString() } : null,
    webhook: row.webhook ?? null,
  };
}

/** The column and value of each field a patch may set. */
function patchColumns(patch: JobPatch): Array<[string, unknown]> {
  const columns: Array<[string, unknown]> = [];
  const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
  if (patch.model !== undefined) columns.push(['model', patch.model]);
  if (patch.modelVersion !== undefined) columns.push(['model_version', patch.modelVersion]);
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (patch.progress !== undefined) columns.push(['progress', patch.progress]);
  if (patch.updatedAt !== undefined) columns.push(['updated_at', patch.updatedAt]);
  if (patch.startedAt !== undefined) columns.push(['started_at', patch.startedAt]);
  if (patch.finishedAt !== undefined) columns.push(['finished_at', patch.finishedAt]);
  if (patch.attempts !== undefined) columns.push(['attempts', patch.attempts]);
  if (patch.input !== undefined) columns.push(['input', json(patch.input)]);
  if (patch.idempotency !== undefined) columns.push(['idempotency_key', patch.idempotency?.key ?? null], ['idempotency_hash', patch.idempotency?.requestHash ?? null]);
  if (patch.asset !== undefined) columns.push(['asset', json(patch.asset)]);
  if (patch.error !== undefined) columns.push(['error', json(patch.error)]);
  if (patch.lease !== undefined) columns.push(['lease_owner', patch.lease?.owner ?? null], ['lease_until', patch.lease?.until ?? null]);
  return columns;
}

/** `SET a = $n, b = $n+1, updated_at = ...` for `patch`, its values, numbered from `first`. */
function setClause(patch: JobPatch, first: number): { sql: string; values: unknown[] } {
  const columns = patchColumns(patch);
  const sets = columns.map(([column], i) => `${column} = $${first + i}`);
  if (patch.updatedAt === undefined) sets.push('updated_at = clock_timestamp()');
  return { sql: sets.join(', '), values: columns.map(([, v]) => v) };
}

/** A `JobStore` on the `aso.jobs` table; a job that becomes `queued` is handed to the queue in the same transaction. */
export class PgJobStore implements JobStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly queue: PgQueue,
  ) {}

  async insert(job: JobRecord): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      try {
        await client.query(
          `INSERT INTO aso.jobs (id, owner, model, model_version, status, progress, created_at, updated_at, started_at, finished_at, attempts, input, idempotency_key, idempotency_hash, asset, error, webhook)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [job.id, job.owner, job.model, job.modelVersion, job.status, job.progress, job.createdAt, job.updatedAt, job.startedAt, job.finishedAt, job.attempts, JSON.stringify(job.input), job.idempotency?.key ?? null, job.idempotency?.requestHash ?? null, job.asset && JSON.stringify(job.asset), job.error && JSON.stringify(job.error), job.webhook ? JSON.stringify(job.webhook) : null],
        );
      } catch (err) {
        const e = err as { code?: string; constraint?: string };
        if (e.code === '23505' && e.constraint === 'jobs_idempotency' && job.idempotency) throw new IdempotencyConflict(job.owner, job.idempotency.key);
        if (e.code === '23505' && e.constraint === 'jobs_pkey') throw new Error(`job ${job.id} exists already`);
        throw err;
      }
      if (job.status === 'queued') await this.queue.enqueue(job.id, client);
    });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM aso.jobs WHERE id = $1', [id]);
    return rows[0] && toRecord(rows[0]);
  }

  async update(id: string, patch: JobPatch): Promise<JobRecord> {
    const set = setClause(patch, 2);
    const { rows } = await this.pool.query<JobRow>(`UPDATE aso.jobs SET ${set.sql} WHERE id = $1 RETURNING *`, [id, ...set.values]);
    if (!rows[0]) throw new Error(`job ${id} does not exist`);
    return toRecord(rows[0]);
  }

  async listByOwner(owner: string, limit: number): Promise<JobRecord[]> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM aso.jobs WHERE owner = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [owner, limit]);
    return rows.map(toRecord);
  }

  async listByStatus(status: JobStatus): Promise<JobRecord[]> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM aso.jobs WHERE status = $1 ORDER BY created_at, id', [status]);
    return rows.map(toRecord);
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<JobRecord | undefined> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM aso.jobs WHERE owner = $1 AND idempotency_key = $2', [owner, key]);
    return rows[0] && toRecord(rows[0]);
  }

  async claim(id: string, worker: string, leaseMs: number): Promise<JobRecord | undefined> {
    const { rows } = await this.pool.query<JobRow>(
      `UPDATE aso.jobs SET status = 'running', progress = 1, attempts = attempts + 1, started_at = clock_timestamp(), updated_at = clock_timestamp(),
         lease_owner = $2, lease_until = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE id = $1 AND status = 'queued' RETURNING *`,
      [id, worker, leaseMs],
    );
    return rows[0] && toRecord(rows[0]);
  }

  async renew(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE aso.jobs SET lease_until = clock_timestamp() + $3 * interval '1 millisecond' WHERE id = ANY($2) AND lease_owner = $1 AND status = 'running' RETURNING id`,
      [worker, ids, leaseMs],
    );
    return rows.map((r) => r.id);
  }

  async updateHeld(id: string, worker: string, patch: JobPatch): Promise<JobRecord | undefined> {
    const ends = patch.status !== undefined && patch.status !== 'running';
    const set = setClause(ends ? { ...patch, lease: null } : patch, 3);
    const statement = `UPDATE aso.jobs SET ${set.sql} WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING *`;
    if (patch.status !== 'queued') {
      const { rows } = await this.pool.query<JobRow>(statement, [id, worker, ...set.values]);
      return rows[0] && toRecord(rows[0]);
    }
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<JobRow>(statement, [id, worker, ...set.values]);
      if (rows[0]) await this.queue.enqueue(id, client);
      return rows[0] && toRecord(rows[0]);
    });
  }

  async cancel(id: string): Promise<JobRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<JobRow>(
        `UPDATE aso.jobs SET status = 'canceled', finished_at = clock_timestamp(), updated_at = clock_timestamp(), lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
        [id],
      );
      if (rows[0]) {
        await client.query('SELECT pg_notify($1, $2)', [CHANNELS.canceled, id]);
        return toRecord(rows[0]);
      }
      const current = await client.query<JobRow>('SELECT * FROM aso.jobs WHERE id = $1', [id]);
      return current.rows[0] && toRecord(current.rows[0]);
    });
  }

  async reclaim(options: { all: boolean; maxAttempts: number }): Promise<ReclaimResult> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: string; attempts: number }>(
        `SELECT id, attempts FROM aso.jobs WHERE status = 'running' AND ($1 OR lease_until IS NULL OR lease_until < clock_timestamp())
         ORDER BY created_at, id FOR UPDATE SKIP LOCKED`,
        [options.all],
      );
      const result: ReclaimResult = { requeued: [], failed: [] };
      for (const { id, attempts } of rows) {
        if (attempts >= options.maxAttempts) {
          const failed = await client.query<JobRow>(
            `UPDATE aso.jobs SET status = 'failed', error = $2, finished_at = clock_timestamp(), updated_at = clock_timestamp(), lease_owner = NULL, lease_until = NULL WHERE id = $1 RETURNING *`,
            [id, JSON.stringify(interruptedError(attempts))],
          );
          result.failed.push(toRecord(failed.rows[0]!));
        } else {
          const queued = await client.query<JobRow>(`UPDATE aso.jobs SET status = 'queued', progress = 0, updated_at = clock_timestamp(), lease_owner = NULL, lease_until = NULL WHERE id = $1 RETURNING *`, [id]);
          await this.queue.enqueue(id, client);
          result.requeued.push(toRecord(queued.rows[0]!));
        }
      }
      return result;
    });
  }

  async stats(): Promise<JobStats> {
    const byStatus = emptyStatusCounts();
    const counts = await this.pool.query<{ status: JobStatus; count: string }>('SELECT status, count(*) AS count FROM aso.jobs GROUP BY status');
    for (const row of counts.rows) byStatus[row.status] = Number(row.count);
    const buckets = DURATION_BUCKETS.map((_, i) => `count(*) FILTER (WHERE d <= $${i + 1}) AS b${i}`).join(', ');
    const durations = await this.pool.query<Record<string, string> & { model: string; count: string; sum: string }>(
      `SELECT model, count(*) AS count, coalesce(sum(d), 0) AS sum, ${buckets}
       FROM (SELECT model, greatest(0, extract(epoch FROM finished_at - started_at)) AS d FROM aso.jobs WHERE status = 'succeeded' AND started_at IS NOT NULL AND finished_at IS NOT NULL) runs
       GROUP BY model ORDER BY model`,
      [...DURATION_BUCKETS],
    );
    return {
      byStatus,
      durations: durations.rows.map((row) => ({
        model: row.model,
        count: Number(row.count),
        sumSeconds: Number(row.sum),
        buckets: DURATION_BUCKETS.map((le, i) => ({ le, count: Number(row[`b${i}`]) })),
      })),
    };
  }

  async check(): Promise<void> {
    await this.pool.query('SELECT 1 FROM aso.jobs LIMIT 1');
  }

  async close(): Promise<void> {}
}
