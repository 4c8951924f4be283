/** The reference image-to-3D job service, in-process: `startJobService` opens the data folder, recovers unfinished jobs and listens. */
import type { AddressInfo } from 'node:net';
import { openFsBackend } from '../store/data-dir.ts';
import { JobRunner } from './job-runner.ts';
import { DEFAULT_LIMITS, DEFAULT_PORT, DEFAULT_RATE_LIMITS, defaultConcurrency, type JobServiceOptions } from './options.ts';
import { buildServer } from './server.ts';
import { WorkerPool } from './worker-pool.ts';

export { MODEL_CATALOG, MODEL_PROVIDER, findModel, generatorRecord, type ModelId, type ModelInfo } from '../models/catalog.ts';
export type { JobDocument } from './job-document.ts';
export type { JobServiceOptions, RateLimits } from './options.ts';
export type { RunnerLimits } from './job-runner.ts';

/** A running service. */
export interface JobService {
  /** The origin it listens on, e.g. `http://127.0.0.1:8787`. */
  url: string;
  port: number;
  /** Makes an API key named `name` and returns it (it is stored only as a hash). */
  createKey(name: string): Promise<string>;
  /** Stops listening; running jobs go back to `queued` and resume when the service starts again on the same data. */
  close(): Promise<void>;
}

/** Starts the service on `options.host:options.port` over the data in `options.dataDir`. */
export async function startJobService(options: JobServiceOptions): Promise<JobService> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const rate = { ...DEFAULT_RATE_LIMITS, ...options.rateLimit };
  const concurrency = options.concurrency ?? defaultConcurrency();
  const logger = options.logger ?? false;
  const log = (line: string): void => {
    if (logger) process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: line })}\n`);
  };
  const backend = await openFsBackend(options.dataDir, log);
  const policy = { allowLoopback: options.allowLoopbackFetch ?? false, allowPrivate: options.allowPrivateFetch ?? false };
  const pool = new WorkerPool({ size: concurrency });
  const runner = new JobRunner({ jobs: backend.jobs, blobs: backend.blobs, queue: backend.queue, pool, limits, policy, log });
  let app;
  try {
    app = await buildServer({
      jobs: backend.jobs,
      blobs: backend.blobs,
      keys: backend.keys,
      runner,
      limits,
      rate,
      policy,
      openSignup: options.openSignup ?? false,
      publicUrl: options.publicUrl,
      logger,
    });
    await app.listen({ port: options.port ?? DEFAULT_PORT, host: options.host ?? '127.0.0.1' });
    if (options.processJobs ?? true) await runner.start(concurrency);
  } catch (err) {
    await app?.close();
    await runner.close();
    await backend.jobs.close();
    await backend.release();
    throw err;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    createKey: async (name) => (await backend.keys.create(name)).key,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await runner.close();
        await backend.jobs.close();
        await backend.release();
      })()),
  };
}
