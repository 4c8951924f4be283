/** Webhook deliveries in Postgres: any process may send a due delivery, under a claim that one conditional UPDATE takes. */
import type pg from 'pg';
import type { DeliveryOutcome, DeliveryStatus, DeliveryStore, WebhookDelivery } from './types.ts';

/** A row of `aso.webhook_deliveries`. */
interface DeliveryRow {
  id: string;
  owner: string;
  job_id: string;
  type: string;
  url: string;
  body: string;
  created_at: Date;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_result: string | null;
  delivered_at: Date | null;
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    owner: row.owner,
    jobId: row.job_id,
    type: row.type,
    url: row.url,
    body: row.body,
    createdAt: row.created_at.toISOString(),
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastResult: row.last_result,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  };
}

/** A `DeliveryStore` on `aso.webhook_deliveries`. Times come from the processes' clocks, like the retry delays they are added to. */
export class PgDeliveryStore implements DeliveryStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(d: WebhookDelivery): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO aso.webhook_deliveries (id, owner, job_id, type, url, body, created_at, status, attempts, next_attempt_at, last_result, delivered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING`,
      [d.id, d.owner, d.jobId, d.type, d.url, d.body, d.createdAt, d.status, d.attempts, d.nextAttemptAt, d.lastResult, d.deliveredAt],
    );
    return rowCount === 1;
  }

  async take(worker: string, limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    if (limit <= 0) return [];
    const now = new Date();
    const { rows } = await this.pool.query<DeliveryRow>(
      `UPDATE aso.webhook_deliveries SET lease_owner = $1, lease_until = $3
       WHERE id IN (
         SELECT id FROM aso.webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
         ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [worker, now, new Date(now.getTime() + leaseMs), limit],
    );
    return rows.map(toDelivery).sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!));
  }

  async settle(id: string, worker: string, outcome: DeliveryOutcome): Promise<void> {
    await this.pool.query(
      `UPDATE aso.webhook_deliveries SET status = $3, attempts = $4, next_attempt_at = $5, last_result = $6,
         delivered_at = CASE WHEN $3 = 'delivered' THEN $7 ELSE delivered_at END, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [id, worker, outcome.status, outcome.attempts, outcome.nextAttemptAt, outcome.lastResult, new Date()],
    );
  }

  async release(worker: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query('UPDATE aso.webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE id = ANY($2) AND lease_owner = $1', [worker, ids]);
  }

  async nextDue(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ due: Date | null }>(
      `SELECT min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) AS due FROM aso.webhook_deliveries WHERE status = 'pending'`,
    );
    return rows[0]?.due?.getTime() ?? undefined;
  }

  async listByJob(jobId: string): Promise<WebhookDelivery[]> {
    const { rows } = await this.pool.query<DeliveryRow>('SELECT * FROM aso.webhook_deliveries WHERE job_id = $1 ORDER BY created_at, id', [jobId]);
    return rows.map(toDelivery);
  }
}
