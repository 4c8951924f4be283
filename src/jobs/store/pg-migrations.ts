/** The versioned schema of the Postgres backend: each migration runs once, in order, under a lock, when any process starts. */
import type { Pool } from 'pg';

/** One step of the schema. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The schema that holds our tables (pg-boss keeps its own, `pgboss`). */
const SCHEMA = 'aso';

/** Every migration, oldest first. Never edit a published one: add the next. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'jobs with status history, API keys',
    sql: `
CREATE TABLE aso.jobs (
  id text PRIMARY KEY,
  owner text NOT NULL,
  model text NOT NULL,
  model_version text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
  progress integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  input jsonb NOT NULL,
  idempotency_key text,
  idempotency_hash text,
  asset jsonb,
  error jsonb,
  lease_owner text,
  lease_until timestamptz
);
CREATE UNIQUE INDEX jobs_idempotency ON aso.jobs (owner, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX jobs_owner_created ON aso.jobs (owner, created_at DESC, id DESC);
CREATE INDEX jobs_status_created ON aso.jobs (status, created_at, id);
CREATE INDEX jobs_running_lease ON aso.jobs (lease_until) WHERE status = 'running';

CREATE TABLE aso.job_history (
  job_id text NOT NULL REFERENCES aso.jobs (id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  status text NOT NULL,
  attempt integer NOT NULL,
  worker text,
  error_code text,
  PRIMARY KEY (job_id, seq)
);
CREATE FUNCTION aso.record_job_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO aso.job_history (job_id, status, attempt, worker, error_code)
    VALUES (NEW.id, NEW.status, NEW.attempts, COALESCE(NEW.lease_owner, CASE WHEN TG_OP = 'UPDATE' THEN OLD.lease_owner END), NEW.error ->> 'code');
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER jobs_status_history AFTER INSERT OR UPDATE OF status ON aso.jobs FOR EACH ROW EXECUTE FUNCTION aso.record_job_status();

CREATE TABLE aso.api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
`,
  },
  {
    version: 2,
    name: 'webhooks: deliveries, signing secrets, job change notifications',
    sql: `
ALTER TABLE aso.jobs ADD COLUMN webhook jsonb;
ALTER TABLE aso.api_keys ADD COLUMN webhook_secret text;

CREATE TABLE aso.webhook_deliveries (
  id text PRIMARY KEY,
  owner text NOT NULL,
  job_id text NOT NULL REFERENCES aso.jobs (id) ON DELETE CASCADE,
  type text NOT NULL,
  url text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_result text,
  delivered_at timestamptz,
  lease_owner text,
  lease_until timestamptz
);
CREATE INDEX webhook_deliveries_due ON aso.webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_job ON aso.webhook_deliveries (job_id, created_at);

CREATE FUNCTION aso.notify_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('aso_jobs_changed', NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_changed AFTER UPDATE OF status, progress ON aso.jobs FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.progress IS DISTINCT FROM NEW.progress)
  EXECUTE FUNCTION aso.notify_job_changed();
`,
  },
];

/** Applies the migrations the database lacks, in one transaction under an advisory lock, and returns the versions it applied. */
export async function migrate(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${SCHEMA}.schema_migrations'))`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${SCHEMA}.schema_migrations ORDER BY version`);
    const have = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...migrations.map((m) => m.version));
    const ahead = rows.map((r) => r.version).filter((v) => v > newest);
    if (ahead.length > 0) {
      throw new Error(`the database schema has migration ${Math.max(...ahead)}, newer than this service knows (${newest}); run a newer version of the service`);
    }
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (have.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${SCHEMA}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
