/**
 * The queue over Postgres with pg-boss: a queued job is a pg-boss job carrying its id, taken with SKIP LOCKED by
 * any worker of any process. The pg-boss job is a delivery token; the job record's lease (see PgJobStore) decides
 * who runs the job, so a token delivered twice runs nothing twice.
 */
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { CHANNELS, type PgNotifier } from './pg-notifier.ts';
import type { JobQueue } from './types.ts';

/** The pg-boss queue name. */
const QUEUE_NAME = 'aso-jobs';

/** Something that runs SQL: the pool, or a client inside a transaction. */
type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Options of the queue. */
export interface PgQueueOptions {
  /** A token taken by a worker that dies before it claims the job comes back after this long (pg-boss expiry and retry). */
  tokenExpirySeconds: number;
  /** How often an idle consumer looks for work when no notification came. */
  pollMs?: number;
  log?: (line: string) => void;
}

/** A `JobQueue` on pg-boss, sharing the process's pool. */
export class PgQueue implements JobQueue {
  private readonly running = new Set<Promise<void>>();
  private handler: ((id: string) => Promise<void>) | undefined;
  private concurrency = 1;
  private closed = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Set when something asked to wake the loop while it was not waiting, so that the next wait returns at once. */
  private woken = false;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly boss: PgBoss,
    private readonly pool: pg.Pool,
    private readonly options: PgQueueOptions,
  ) {}

  /** Starts pg-boss on `pool` (installing or migrating its schema) and creates the queue; `notifier` wakes the consumer when a job is queued. */
  static async open(pool: pg.Pool, notifier: PgNotifier, options: PgQueueOptions): Promise<PgQueue> {
    const log = options.log ?? (() => {});
    const boss = new PgBoss({ db: { executeSql: (text, values) => pool.query(text, values) }, schedule: false, supervise: true, migrate: true });
    boss.on('error', (err) => log(`pg-boss: ${(err as Error).message}`));
    // pg-boss installs its schema on first start; processes that start together on a new database take turns.
    const lock = await pool.connect();
    try {
      await lock.query(`SELECT pg_advisory_lock(hashtext('aso.pgboss-start'))`);
      await boss.start();
      await boss.createQueue(QUEUE_NAME, { name: QUEUE_NAME, policy: 'standard', retryLimit: 5, retryDelay: 0, expireInSeconds: options.tokenExpirySeconds });
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(hashtext('aso.pgboss-start'))`).catch(() => {});
      lock.release();
    }
    const queue = new PgQueue(boss, pool, options);
    notifier.on(CHANNELS.queued, () => queue.nudge());
    return queue;
  }

  /** Sends a token for `id`, inside the caller's transaction when `db` is its client, and wakes idle workers once it commits. */
  async enqueue(id: string, db: Queryable = this.pool): Promise<void> {
    await this.boss.send(QUEUE_NAME, { id }, { db: { executeSql: (text, values) => db.query(text, values) } });
    await db.query('SELECT pg_notify($1, $2)', [CHANNELS.queued, id]);
  }

  consume(handler: (id: string) => Promise<void>, concurrency: number): void {
    if (this.handler) throw new Error('the queue has a consumer already');
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
    this.handler = handler;
    this.concurrency = concurrency;
    this.loop = this.run();
  }

  /** Stops taking tokens, waits for the handlers that run (they may queue jobs again), then stops pg-boss. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.closed = true;
      this.nudge();
      await this.loop;
      await Promise.allSettled([...this.running]);
      await this.boss.stop({ graceful: false, close: false, wait: true });
    })());
  }

  /** Jobs waiting in pg-boss (tokens not yet taken). */
  async size(): Promise<number> {
    return this.boss.getQueueSize(QUEUE_NAME);
  }

  private async run(): Promise<void> {
    const log = this.options.log ?? (() => {});
    while (!this.closed) {
      const free = this.concurrency - this.running.size;
      let tokens: Array<PgBoss.Job<{ id: string }>> = [];
      if (free > 0) {
        this.woken = false;
        try {
          tokens = await this.boss.fetch<{ id: string }>(QUEUE_NAME, { batchSize: free });
        } catch (err) {
          log(`pg-boss fetch failed: ${(err as Error).message}`);
        }
      }
      for (const token of tokens) {
        if (this.closed) this.giveBack(token);
        else this.start(token);
      }
      if (tokens.length === 0 || this.running.size >= this.concurrency) await this.idle();
    }
  }

  private start(token: PgBoss.Job<{ id: string }>): void {
    const log = this.options.log ?? (() => {});
    const run: Promise<void> = this.handler!(token.data.id)
      .catch((err: Error) => log(`job ${token.data.id}: ${err.message}`))
      .then(() => this.boss.complete(QUEUE_NAME, token.id))
      .catch((err: Error) => log(`pg-boss complete failed for job ${token.data.id}: ${err.message}`))
      .finally(() => {
        this.running.delete(run);
        this.nudge();
      });
    this.running.add(run);
  }

  /** A token taken while the queue was closing goes back for another worker: a new token first, then the old one completed (a duplicate is harmless, a loss is not). */
  private giveBack(token: PgBoss.Job<{ id: string }>): void {
    const log = this.options.log ?? (() => {});
    const back: Promise<void> = this.enqueue(token.data.id)
      .then(() => this.boss.complete(QUEUE_NAME, token.id))
      .catch((err: Error) => log(`job ${token.data.id}: could not hand its queue entry back (${err.message}); it comes back when the entry expires`))
      .finally(() => this.running.delete(back));
    this.running.add(back);
  }

  /** Wakes the loop, now or at its next wait. */
  private nudge(): void {
    if (this.wake) this.wake();
    else this.woken = true;
  }

  /** Waits for a notification, a free slot, or the poll interval. */
  private idle(): Promise<void> {
    if (this.closed || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs ?? 2000);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
