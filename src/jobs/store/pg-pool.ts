/** Connections to Postgres: one pool per process, and a transaction helper. */
import pg from 'pg';

/** A pool on `url`; connection errors of idle clients are logged instead of crashing the process. */
export function openPool(url: string, log: (line: string) => void = () => {}, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 10_000, application_name: 'aso-jobs' });
  pool.on('error', (err) => log(`postgres connection error: ${err.message}`));
  return pool;
}

/** Runs `work` in a transaction on one client of `pool`. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** A database URL with its password hidden, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable database URL';
  }
}
