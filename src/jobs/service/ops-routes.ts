/** The routes operators and load balancers use: `/healthz` (the process is up), `/readyz` (its stores answer), `/metrics` (Prometheus text). */
import type { FastifyInstance } from 'fastify';
import type { BlobStore, JobStore } from '../store/types.ts';
import type { ConnectionCap } from './connection-cap.ts';
import type { JobRunner } from './job-runner.ts';
import { prometheusText } from './metrics.ts';
import type { UploadSlots } from './upload-slots.ts';

/** What the operations routes read. */
export interface OpsDeps {
  jobs: JobStore;
  blobs: BlobStore;
  runner: JobRunner;
  /** `files` or `postgres`. */
  backend: string;
  /** The per-address connection cap, for the count of what it refused. */
  cap: ConnectionCap;
  /** The uploads being read. */
  uploads: UploadSlots;
}

/** How long a readiness check may take. */
const READY_TIMEOUT_MS = 5000;

/** Registers the operations routes on `app`. */
export async function opsRoutes(app: FastifyInstance, deps: OpsDeps): Promise<void> {
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ ok: true }));

  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    const store = deps.backend === 'postgres' ? 'database' : 'job_store';
    const [jobs, blobs] = await Promise.all([probe(() => deps.jobs.check()), probe(() => deps.blobs.check())]);
    const ok = jobs === 'ok' && blobs === 'ok';
    return reply.code(ok ? 200 : 503).header('cache-control', 'no-store').send({ ok, checks: { [store]: jobs, blob_store: blobs } });
  });

  app.get('/metrics', { config: { rateLimit: false } }, async (_request, reply) => {
    const text = prometheusText({
      stats: await deps.jobs.stats(),
      runningHere: deps.runner.running,
      backend: deps.backend,
      uploadsInProgress: deps.uploads.inProgress,
      connectionsRefused: deps.cap.refused,
    });
    return reply.type('text/plain; version=0.0.4; charset=utf-8').header('cache-control', 'no-store').send(text);
  });
}

/** `ok`, or why the check failed (its message, with no stack). */
async function probe(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)))]);
    return 'ok';
  } catch (err) {
    return `unavailable: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    clearTimeout(timer);
  }
}
