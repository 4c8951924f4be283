import { afterEach, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/jobs/store/pg-migrations.ts';
import { openPool } from '../../src/jobs/store/pg-pool.ts';
import { freshDatabase, sql } from '../support/postgres.ts';

const pools: Array<ReturnType<typeof openPool>> = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.end();
});

function pool(url: string): ReturnType<typeof openPool> {
  const p = openPool(url);
  pools.push(p);
  return p;
}

describe('the versioned schema of the Postgres backend', () => {
  it('applies each migration once, even when processes start together, and records it', async () => {
    const url = await freshDatabase();
    const results = await Promise.all([migrate(pool(url)), migrate(pool(url)), migrate(pool(url))]);
    expect(results.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(pool(url))).toEqual([]);
    const rows = await sql<{ version: number; name: string }>(url, 'SELECT version, name FROM aso.schema_migrations ORDER BY version');
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it('a later migration runs after the ones applied before; a failing one leaves nothing behind', async () => {
    const url = await freshDatabase();
    await migrate(pool(url));
    const next = { version: MIGRATIONS.length + 1, name: 'a column', sql: 'ALTER TABLE aso.jobs ADD COLUMN note text' };
    expect(await migrate(pool(url), [...MIGRATIONS, next])).toEqual([next.version]);
    const broken = { version: next.version + 1, name: 'broken', sql: 'ALTER TABLE aso.nothing ADD COLUMN x int' };
    const after = { version: next.version + 2, name: 'never', sql: 'CREATE TABLE aso.never (x int)' };
    await expect(migrate(pool(url), [...MIGRATIONS, next, broken, after])).rejects.toThrow(/aso\.nothing/);
    const versions = await sql<{ version: number }>(url, 'SELECT version FROM aso.schema_migrations ORDER BY version');
    expect(versions.map((v) => v.version)).toEqual([...MIGRATIONS.map((m) => m.version), next.version]);
    expect(await sql(url, "SELECT 1 FROM pg_tables WHERE schemaname = 'aso' AND tablename = 'never'")).toEqual([]);
  });

  it('refuses a database migrated by a newer version of the service', async () => {
    const url = await freshDatabase();
    await migrate(pool(url));
    await sql(url, "INSERT INTO aso.schema_migrations (version, name) VALUES (999, 'from the future')");
    await expect(migrate(pool(url))).rejects.toThrow(`the database schema has migration 999, newer than this service knows (${MIGRATIONS.at(-1)!.version}); run a newer version of the service`);
  });

  it('records every status change of a job in its history', async () => {
    const url = await freshDatabase();
    await migrate(pool(url));
    const now = new Date().toISOString();
    await sql(url, `INSERT INTO aso.jobs (id, owner, model, model_version, status, created_at, updated_at, input) VALUES ('j1', 'o', 'card', '1.0.0', 'queued', $1, $1, '{}')`, [now]);
    await sql(url, `UPDATE aso.jobs SET status = 'running', attempts = 1, lease_owner = 'w1' WHERE id = 'j1'`);
    await sql(url, `UPDATE aso.jobs SET progress = 50 WHERE id = 'j1'`);
    await sql(url, `UPDATE aso.jobs SET status = 'failed', error = '{"code":"timeout","message":"m"}', lease_owner = NULL WHERE id = 'j1'`);
    const history = await sql(url, `SELECT status, attempt, worker, error_code FROM aso.job_history WHERE job_id = 'j1' ORDER BY seq`);
    expect(history).toEqual([
      { status: 'queued', attempt: 0, worker: null, error_code: null },
      { status: 'running', attempt: 1, worker: 'w1', error_code: null },
      { status: 'failed', attempt: 1, worker: 'w1', error_code: 'timeout' },
    ]);
  });
});
