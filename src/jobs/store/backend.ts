/** Everything the job service keeps, behind one interface: the data folder by default, Postgres when a database URL is given, blobs in S3 when a store is named. */
import { join, resolve } from 'node:path';
import type { S3Env } from '../../io/s3-objects.ts';
import type { S3BlobStore } from './s3-blob-store.ts';
import type { Backend, KeyStore } from './types.ts';

/** Where the service keeps its data. */
export interface BackendOptions {
  /** The data folder: everything without a database, the blobs (inputs and assets) with one. */
  dataDir: string;
  /** A `postgres://` URL: jobs, keys and the queue go to this database. */
  databaseUrl?: string;
  /** Logs a line of the store (unreadable files, migrations). */
  log?: (line: string) => void;
  /** `s3://<bucket>/<prefix>`: the blobs go to this S3-compatible store instead of the data folder, with either backend. */
  blobStore?: { url: string; env: S3Env; source?: string };
}

/** Opens the backend the options select; Postgres code is loaded only when a URL is given. */
export async function openBackend(options: BackendOptions): Promise<Backend> {
  const s3 = options.blobStore ? await openS3Blobs(options.dataDir, options.blobStore) : undefined;
  let backend: Backend;
  try {
    if (options.databaseUrl) {
      const { openPgBackend } = await import('./pg-backend.ts');
      backend = await openPgBackend({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, log: options.log, blobs: s3 });
    } else {
      const { openFsBackend } = await import('./data-dir.ts');
      backend = await openFsBackend(options.dataDir, options.log, s3);
    }
  } catch (err) {
    s3?.close();
    throw err;
  }
  if (!s3) return backend;
  const close = backend.close.bind(backend);
  return Object.assign(backend, { close: () => close().finally(() => s3.close()) });
}

/** The S3 blob store, with uploads staged in `<dataDir>/staging` on this machine's disk; the S3 client is loaded only when asked for. */
async function openS3Blobs(dataDir: string, store: NonNullable<BackendOptions['blobStore']>): Promise<S3BlobStore> {
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  return S3BlobStore.open({ ...store, stagingDir: join(resolve(dataDir), 'staging') });
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
