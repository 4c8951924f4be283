/** The reference image-to-3D job service, in-process: `startJobService` opens its data (a folder, or Postgres), recovers unfinished jobs and listens. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { openBackend } from '../store/backend.ts';
import { EventedJobStore } from '../webhooks/evented-job-store.ts';
import { WebhookDispatcher, webhookOptions } from '../webhooks/webhook-dispatcher.ts';
import { eventStreamOptions } from './event-stream.ts';
import { JobRunner } from './job-runner.ts';
import { JobWatch } from './job-watch.ts';
import { jsonLogger } from './log.ts';
import { ConnectionCap } from './connection-cap.ts';
import { connectionLimits, DEFAULT_LEASE_MS, DEFAULT_LIMITS, DEFAULT_PORT, DEFAULT_RATE_LIMITS, defaultConcurrency, uploadLimits, type JobServiceOptions } from './options.ts';
import { buildOpsServer, buildServer } from './server.ts';
import { UploadSlots } from './upload-slots.ts';
import { WorkerPool } from './worker-pool.ts';

export { MODEL_CATALOG,      } from '../models/catalog.ts';
export type { JobDocument } from './job-document.ts';
export type { JobServiceOptions,   } from './options.ts';
;

/** A running service. */
export interface JobService {
  /** The origin it listens on, e.g. `http://127.0.0.1:8787` (empty for a worker that serves no HTTP). */
  url: string;
  port: number;
  /** Which parts run in this process. */
  role: 'api' | 'worker' | 'all';
  /** This process's name in job leases and logs. */
  workerId: string;
  /** Makes an API key named `name` and returns it (it is stored only as a hash). */
  createKey(name: string): Promise<string>;
  /** Stops listening; running jobs go back to `queued` for another worker or the next start on the same data. */
  close(): Promise<void>;
}

/** Starts the service on `options.host:options.port` over the data in `options.dataDir`, or in Postgres when `options.databaseUrl` is set. */
export async function startJobService(options: JobServiceOptions): Promise<JobService> {
  const role = options.role ?? 'all';
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const rate = { ...DEFAULT_RATE_LIMITS, ...options.rateLimit };
  const connections = connectionLimits(options.connections);
  const uploads = new UploadSlots(uploadLimits(options.uploads));
  const cap = new ConnectionCap(connections.maxConnectionsPerAddress);
  const concurrency = options.concurrency ?? defaultConcurrency();
  const logger = options.logger ?? false;
  const log = jsonLogger(logger);
  const webhookSettings = webhookOptions(options.webhooks);
  const events = eventStreamOptions(options.events, connections.idleTimeoutMs);
  if (role !== 'all' && !options.databaseUrl) {
    throw new Error(`--role ${role} needs a database shared by every process (DATABASE_URL or --database-url); the data folder serves one process, --role all`);
  }
  const backend = await openBackend({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, blobStore: options.blobStore, log: (msg) => log({ level: 'warn', msg }) });
  const policy = { allowLoopback: options.allowLoopbackFetch ?? false, allowPrivate: options.allowPrivateFetch ?? false };
  const pool = new WorkerPool({ size: concurrency });
  // Every status change this process stores is pushed to the job's webhook, if it has one.
  const jobs = new EventedJobStore(backend.jobs, (job): Promise<void> => webhooks.push(job));
  const runner = new JobRunner({
    jobs,
    blobs: backend.blobs,
    queue: backend.queue,
    pool,
    limits,
    policy,
    log,
    exclusive: backend.exclusive,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    onCancel: (listener) => backend.onCancel(listener),
  });
  const webhooks: WebhookDispatcher = new WebhookDispatcher({ deliveries: backend.deliveries, keys: backend.keys, policy, log, worker: runner.id, options: webhookSettings });
  const watch = new JobWatch((listener) => backend.onChange(listener));
  const processJobs = role !== 'api' && (options.processJobs ?? true);
  const ops = { jobs, blobs: backend.blobs, runner, backend: backend.kind, cap, uploads };
  let app: FastifyInstance | undefined;
  try {
    if (role === 'worker') {
      if (options.port !== undefined) app = await buildOpsServer(ops, logger, connections, cap);
    } else {
      app = await buildServer({
        jobs,
        blobs: backend.blobs,
        keys: backend.keys,
        runner,
        limits,
        rate,
        policy,
        openSignup: options.openSignup ?? false,
        publicUrl: options.publicUrl,
        logger,
        connections,
        cap,
        uploads,
        ops,
        watch,
        events,
      });
    }
    await app?.listen({ port: options.port ?? DEFAULT_PORT, host: options.host ?? '127.0.0.1' });
    if (processJobs) await runner.start(concurrency);
    webhooks.start();
  } catch (err) {
    await app?.close();
    await runner.close();
    await webhooks.close();
    await backend.close();
    throw err;
  }
  const address = app?.server.address() as AddressInfo | undefined;
  const host = address?.family === 'IPv6' ? `[${address.address}]` : address?.address;
  log({ msg: 'service started', role, backend: backend.kind, worker: runner.id, processJobs, ...(address ? { port: address.port } : {}) });
  let closing: Promise<void> | undefined;
  return {
    url: address ? `http://${host}:${address.port}` : '',
    port: address?.port ?? 0,
    role,
    workerId: runner.id,
    createKey: async (name) => (await backend.keys.create(name)).key,
    close: () =>
      (closing ??= (async () => {
        await app?.close();
        await runner.close();
        await webhooks.close();
        await backend.close();
      })()),
  };
}
