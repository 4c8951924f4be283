/** Takes queued jobs, fetches their image, runs the model on the worker pool and records the outcome. */
import { createHash } from 'node:crypto';
import { findModel } from '../models/catalog.ts';
import { FINAL_STATUSES, type BlobStore, type JobQueue, type JobRecord, type JobStore } from '../store/types.ts';
import type { AddressPolicy } from './address-policy.ts';
import { fetchImage, FetchError } from './fetch-image.ts';
import { checkImage, ImageRejection, type ImageLimits } from './image-check.ts';
import { TaskError, WorkerPool } from './worker-pool.ts';

/** The limits a job runs under. */
export interface RunnerLimits extends ImageLimits {
  fetchTimeoutMs: number;
  maxRedirects: number;
  jobTimeoutMs: number;
  /** A job interrupted by a crash this many times is failed instead of taken up again. */
  maxAttempts: number;
}

/** What the runner works with. */
export interface RunnerDeps {
  jobs: JobStore;
  blobs: BlobStore;
  queue: JobQueue;
  pool: WorkerPool;
  limits: RunnerLimits;
  policy: AddressPolicy;
  log: (line: string) => void;
}

/** The blob name of a job's input image. */
export function inputBlob(id: string): string {
  return `${id}.input`;
}

/** The blob name of a job's asset. */
export function assetBlob(job: Pick<JobRecord, 'id' | 'asset'>): string {
  return `${job.id}.${job.asset?.format ?? 'bin'}`;
}

const CANCELED = 'canceled';
const SHUTDOWN = 'shutdown';

/** Runs jobs from the queue, a bounded number at a time. */
export class JobRunner {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly lastProgress = new Map<string, number>();
  private readonly steps = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Takes up jobs that a stopped service left behind, then starts consuming the queue. */
  async start(concurrency: number): Promise<void> {
    await this.recover();
    this.deps.queue.consume((id) => this.process(id), concurrency);
  }

  /** Jobs left `running` are queued again (or failed after too many attempts); every `queued` job is enqueued in order. */
  async recover(): Promise<void> {
    const { jobs, queue, limits, log } = this.deps;
    for (const job of await jobs.listByStatus('running')) {
      if (job.attempts >= limits.maxAttempts) {
        await jobs.update(job.id, {
          status: 'failed',
          finishedAt: new Date().toISOString(),
          error: { code: 'interrupted', message: `the service stopped while the job was running, ${job.attempts} times; it is not tried again` },
        });
        log(`job ${job.id} failed: interrupted ${job.attempts} times`);
      } else {
        await jobs.update(job.id, { status: 'queued', progress: 0 });
        log(`job ${job.id} was running when the service stopped; queued again`);
      }
    }
    for (const job of await jobs.listByStatus('queued')) await queue.enqueue(job.id);
  }

  /** Stores the input (if uploaded) and the record, then queues the job. */
  async submit(job: JobRecord, image?: Uint8Array): Promise<void> {
    if (image) await this.deps.blobs.put(inputBlob(job.id), image);
    await this.deps.jobs.insert(job);
    await this.deps.queue.enqueue(job.id);
  }

  /**
   * Cancels a queued or running job and returns it; a finished job is returned unchanged. The check and the write are
   * one step against the runner taking the job up (see `exclusive`), so a cancel is never overwritten by `running`.
   */
  async cancel(id: string): Promise<JobRecord | undefined> {
    const outcome = await this.exclusive(id, async (): Promise<{ job: JobRecord | undefined } | { wait: Promise<void> }> => {
      const job = await this.deps.jobs.get(id);
      if (!job || FINAL_STATUSES.includes(job.status)) return { job };
      const running = this.active.get(id);
      running?.controller.abort(CANCELED);
      // A running job is marked canceled by its own run once the model stops; a queued one (taken from the queue or
      // not) is marked here, and the run that takes it up finds it canceled.
      if (job.status === 'running' && running) return { wait: running.done };
      return { job: await this.deps.jobs.update(id, { status: 'canceled', finishedAt: new Date().toISOString() }) };
    });
    if ('job' in outcome) return outcome.job;
    await outcome.wait;
    return this.deps.jobs.get(id);
  }

  /** Runs `task` after every earlier `exclusive` task of the same job in this process: a job's status moves one step at a time. */
  private exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    const run = (this.steps.get(id) ?? Promise.resolve()).then(task, task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.steps.set(id, settled);
    void settled.then(() => {
      if (this.steps.get(id) === settled) this.steps.delete(id);
    });
    return run;
  }

  /** Stops taking jobs; running jobs go back to `queued` and resume when a service opens the same data. */
  async close(): Promise<void> {
    for (const { controller } of this.active.values()) controller.abort(SHUTDOWN);
    await this.deps.queue.close();
    await this.deps.pool.close();
  }

  private process(id: string): Promise<void> {
    const controller = new AbortController();
    const done = this.work(id, controller.signal).finally(() => {
      this.active.delete(id);
      this.lastProgress.delete(id);
    });
    this.active.set(id, { controller, done });
    return done;
  }

  private async work(id: string, signal: AbortSignal): Promise<void> {
    const { jobs, blobs, pool, limits, policy, log } = this.deps;
    const claimed = await this.exclusive(id, async () => {
      const queued = await jobs.get(id);
      if (!queued || queued.status !== 'queued' || signal.aborted) return undefined;
      return { queued, job: await jobs.update(id, { status: 'running', progress: 1, attempts: queued.attempts + 1, startedAt: new Date().toISOString() }) };
    });
    if (!claimed) return;
    const { queued } = claimed;
    let job = claimed.job;
    const model = findModel(queued.model);
    try {
      if (!model) throw new TaskError('unknown_model', `model "${queued.model}" is not in the catalog`);
      let image = await blobs.get(inputBlob(id));
      if (!image) {
        if (job.input.kind !== 'url') throw new TaskError('input_missing', 'the uploaded image of this job is missing from the data folder');
        image = (await fetchImage(job.input.url, { policy, timeoutMs: limits.fetchTimeoutMs, maxBytes: limits.maxImageBytes, maxRedirects: limits.maxRedirects, signal })).bytes;
        await checkImage(image, limits);
        await blobs.put(inputBlob(id), image);
      }
      this.progress(id, 10);
      const bytes = await pool.run({ model: model.id, image, signal, timeoutMs: limits.jobTimeoutMs, onProgress: (f) => this.progress(id, 10 + f * 85) });
      // A cancel (or a shutdown) that came as the model finished still wins over the result.
      signal.throwIfAborted();
      const asset = { format: model.format, mediaType: model.mediaType, byteLength: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      await blobs.put(assetBlob({ id, asset }), bytes);
      job = await jobs.update(id, { status: 'succeeded', progress: 100, asset, finishedAt: new Date().toISOString() });
      log(`job ${id} succeeded (${model.id}, ${bytes.length} bytes)`);
    } catch (err) {
      if (signal.aborted && signal.reason === SHUTDOWN) {
        await jobs.update(id, { status: 'queued', progress: 0, attempts: queued.attempts, startedAt: null });
        return;
      }
      if (signal.aborted && signal.reason === CANCELED) {
        await jobs.update(id, { status: 'canceled', finishedAt: new Date().toISOString() });
        return;
      }
      const error = describe(err);
      if (error.code === 'internal_error') log(`job ${id} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      await jobs.update(id, { status: 'failed', error, finishedAt: new Date().toISOString() });
    }
  }

  /** Records progress when it has moved by at least 5 points (writes are serialized per job by the store). */
  private progress(id: string, value: number): void {
    const rounded = Math.min(99, Math.max(0, Math.floor(value)));
    if (rounded - (this.lastProgress.get(id) ?? 0) < 5) return;
    this.lastProgress.set(id, rounded);
    this.deps.jobs.update(id, { progress: rounded }).catch((err: Error) => this.deps.log(`job ${id}: progress not saved: ${err.message}`));
  }
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof TaskError || err instanceof FetchError || err instanceof ImageRejection) return { code: err.code, message: err.message };
  return { code: 'internal_error', message: 'the job failed because of an internal error of the service' };
}
