/** The layout of the service's data folder and the lock that keeps a second service out of it. */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FsBlobStore } from './fs-blob-store.ts';
import { FsDeliveryStore } from './fs-delivery-store.ts';
import { FsJobStore } from './fs-job-store.ts';
import { FsKeyStore } from './fs-key-store.ts';
import { MemoryQueue } from './memory-queue.ts';
import type { Backend, BlobStore, KeyStore } from './types.ts';

/** Where each kind of data lives inside the data folder. */
export function dataPaths(dataDir: string): { root: string; jobs: string; blobs: string; keys: string; webhooks: string; lock: string } {
  const root = resolve(dataDir);
  return { root, jobs: join(root, 'jobs'), blobs: join(root, 'blobs'), keys: join(root, 'keys'), webhooks: join(root, 'webhooks'), lock: join(root, 'service.lock') };
}

/** The key store of a data folder (for the `keys` commands, which may run beside the service). */
export function openKeyStore(dataDir: string): Promise<KeyStore> {
  return FsKeyStore.open(dataPaths(dataDir).keys);
}

/** Opens the file-system backend, refusing a folder that another running service holds; `blobStore` replaces the blob folder. */
export async function openFsBackend(dataDir: string, warn: (line: string) => void = () => {}, blobStore?: BlobStore): Promise<Backend> {
  const paths = dataPaths(dataDir);
  await mkdir(paths.root, { recursive: true });
  await acquireLock(paths.lock);
  try {
    // Its errors go to standard error whatever the log setting: the runner records every failure of a job in the job.
    const queue = new MemoryQueue();
    const changed = new Set<(id: string) => void>();
    const onChanged = (id: string): void => changed.forEach((listener) => listener(id));
    const deliveries = await FsDeliveryStore.open(paths.webhooks, warn);
    const [jobs, blobs, keys] = await Promise.all([FsJobStore.open(paths.jobs, { warn, onQueued: (id) => queue.enqueue(id), onChanged }), blobStore ?? FsBlobStore.open(paths.blobs), FsKeyStore.open(paths.keys)]);
    return {
      kind: 'files',
      jobs,
      blobs,
      keys,
      queue,
      deliveries,
      exclusive: true,
      onCancel: () => {},
      onChange: (listener) => changed.add(listener),
      close: async () => {
        await queue.close();
        await jobs.close();
        HELD.delete(paths.lock);
        await rm(paths.lock, { force: true });
      },
    };
  } catch (err) {
    HELD.delete(paths.lock);
    await rm(paths.lock, { force: true });
    throw err;
  }
}

/** The lock files this process holds, so that a stale lock that carries this process's id (a restarted container) is told apart. */
const HELD = new Set<string>();

async function acquireLock(lock: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx' });
      HELD.add(lock);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    const ours = pid === process.pid;
    if (Number.isInteger(pid) && pid > 0 && (ours ? HELD.has(lock) : isAlive(pid))) {
      throw new Error(`the data folder is in use by another job service (process ${pid}, lock file ${lock})`);
    }
    await rm(lock, { force: true });
  }
  throw new Error(`could not take the lock file ${lock}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
