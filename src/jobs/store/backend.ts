/** Everything the job service keeps, behind one interface: the data folder by default, Postgres when a database URL is given. */
import type { BlobStore, JobQueue, JobStore, KeyStore } from './types.ts';

/** The stores and the queue of one service process. */
export interface Backend {
  kind: 'files' | 'postgres';
  jobs: JobStore;
  blobs: BlobStore;
  keys: KeyStore;
  queue: JobQueue;
  /** True when this process alone uses the data (the data folder): every job left `running` at start was interrupted. */
  exclusive: boolean;
  /** Calls `listener` with the id of each job that another process cancels (Postgres only; the data folder has no other process). */
  onCancel(listener: (id: string) => void): void;
  /** Closes the stores and the queue and releases the data. */
  close(): Promise<void>;
}

/** Where the service keeps its data. */
export interface BackendOptions {
  /** The data folder: everything without a database, the blobs (inputs and assets) with one. */
  dataDir: string;
  /** A `postgres://` URL: jobs, keys and the queue go to this database. */
  databaseUrl?: string;
  /** Logs a line of the store (unreadable files, migrations). */
  log?: (line: string) => void;
}

/** Opens the backend the options select; Postgres code is loaded only when a URL is given. */
export async function openBackend(options: BackendOptions): Promise<Backend> {
  if (options.databaseUrl) {
    const { openPgBackend } = await import('./pg-backend.ts');
    return openPgBackend({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, log: options.log });
  }
  const { openFsBackend } = await import('./data-dir.ts');
  return openFsBackend(options.dataDir, options.log);
}

/** The key store alone (for the `keys` commands, which may run beside the service). */
export async function openKeys(options: BackendOptions): Promise<KeyStore> {
  if (options.databaseUrl) {
    const { openPgKeyStore } = await import('./pg-backend.ts');
    return openPgKeyStore(options.databaseUrl);
  }
  const { openKeyStore } = await import('./data-dir.ts');
  return openKeyStore(options.dataDir);
}
