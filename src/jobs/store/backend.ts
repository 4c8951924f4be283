/** Everything the job service keeps, behind one interface: the data folder by default, Postgres when a database URL is given. */
import type { Backend, KeyStore } from './types.ts';

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
