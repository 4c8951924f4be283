/** The Postgres backend: jobs, keys and the pg-boss queue in one database shared by any number of processes; blobs in a folder they share or an S3-compatible store. */
import type { Backend, BlobStore } from './types.ts';
import { dataPaths } from './data-dir.ts';
import { FsBlobStore } from './fs-blob-store.ts';
import { PgDeliveryStore } from './pg-delivery-store.ts';
import { PgJobStore } from './pg-job-store.ts';
import { PgKeyStore } from './pg-key-store.ts';
import { migrate } from './pg-migrations.ts';
import { CHANNELS, PgNotifier } from './pg-notifier.ts';
import { openPool, redactUrl } from './pg-pool.ts';
import { PgQueue } from './pg-queue.ts';

/** Where the Postgres backend keeps things. */
export interface PgBackendOptions {
  databaseUrl: string;
  /** The blobs go to `<dataDir>/blobs`, a folder every process must share, unless `blobs` is given. */
  dataDir: string;
  /** Another blob store (an S3-compatible one) instead of the folder. */
  blobs?: BlobStore;
  log?: (line: string) => void;
  /** A queue token taken by a worker that died before claiming its job is delivered again after this long. */
  tokenExpirySeconds?: number;
}

/** Connects, applies the migrations, starts pg-boss and opens the blob folder. */
export async function openPgBackend(options: PgBackendOptions): Promise<Backend> {
  const log = options.log ?? (() => {});
  const pool = openPool(options.databaseUrl, log);
  let notifier: PgNotifier | undefined;
  let queue: PgQueue | undefined;
  try {
    await connectOrExplain(pool, options.databaseUrl);
    const applied = await migrate(pool);
    if (applied.length > 0) log(`database migrations applied: ${applied.join(', ')}`);
    notifier = await PgNotifier.open(options.databaseUrl, log);
    queue = await PgQueue.open(pool, notifier, { tokenExpirySeconds: options.tokenExpirySeconds ?? 600, log });
    const jobs = new PgJobStore(pool, queue);
    const keys = new PgKeyStore(pool);
    const blobs = options.blobs ?? (await FsBlobStore.open(dataPaths(options.dataDir).blobs, { shared: true }));
    const cancelNotifier = notifier;
    const openQueue = queue;
    let closing: Promise<void> | undefined;
    return {
      kind: 'postgres',
      jobs,
      blobs,
      keys,
      queue,
      deliveries: new PgDeliveryStore(pool),
      exclusive: false,
      onCancel: (listener) => cancelNotifier.on(CHANNELS.canceled, listener),
      onChange: (listener) => cancelNotifier.on(CHANNELS.changed, listener),
      close: () =>
        (closing ??= (async () => {
          await openQueue.close();
          await cancelNotifier.close();
          await pool.end();
        })()),
    };
  } catch (err) {
    await queue?.close().catch(() => {});
    await notifier?.close();
    await pool.end().catch(() => {});
    throw err;
  }
}

/** The key store alone, with the migrations applied (for `npm run jobs -- keys ...`). */
export async function openPgKeyStore(databaseUrl: string): Promise<PgKeyStore> {
  const pool = openPool(databaseUrl);
  try {
    await connectOrExplain(pool, databaseUrl);
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  return new PgKeyStore(pool, () => pool.end());
}

/** Fails with a message that names the database (password hidden) when it cannot be reached. */
async function connectOrExplain(pool: ReturnType<typeof openPool>, url: string): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    throw new Error(`cannot reach the database ${redactUrl(url)}: ${(err as Error).message}`);
  }
}
