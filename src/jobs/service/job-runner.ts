/** Takes queued jobs, fetches their image, runs the model on the worker pool and records the outcome, under a lease that other processes can see. */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { findModel } from '../models/catalog.ts';
import { IdempotencyConflict, type BlobStore, type JobQueue, type JobRecord, type JobStore } from '../store/types.ts';
import type { AddressPolicy } from './address-policy.ts';
import { fetchImage, FetchError } from './fetch-image.ts';
import { checkImage, ImageRejection, type ImageLimits } from './image-check.ts';
import type { LogFn } from './log.ts';
import { TaskError, type WorkerPool } from './worker-pool.ts';

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
  log: LogFn;
  /** True when this process alone uses the data: jobs left running at start were interrupted, and no lease needs renewing. */
  exclusive: boolean;
  /** How long a claim on a running job holds without renewal; a worker that dies loses its jobs after this. */
  leaseMs: number;
  /** Subscribes to cancellations made by other processes. */
  onCancel(listener: (id: string) => void): void;
}

/** The blob name of a job's input image. */
function inputBlob(id: string): string {
  return `${id}.input`;
}

/** The blob name of a job's asset. */
export function assetBlob(job: Pick<JobRecord, 'id' | 'asset'>): string {
  return `${job.id}.${job.asset?.format ?? 'bin'}`;
}

const CANCELED = 'canceled';
const SHUTDOWN = 'shutdown';
const LOST = 'lease_lost';

/** Runs jobs from the queue, a bounded number at a time. */
export class JobRunner {
  /** This runner's name in leases and logs. */
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly lastProgress = new Map<string, number>();
  /** The last progress write of each job: the next one waits for it, so that a store with several connections cannot apply them out of order. */
  private readonly progressWrites = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: RunnerDeps) {
    deps.onCancel((id) => this.active.get(id)?.controller.abort(CANCELED));
  }

  /** The jobs this process runs now. */
  get running(): number {
    return this.active.size;
  }

  /** Takes up jobs that a stopped service left behind, then starts consuming the queue (and, on shared data, renewing leases and reclaiming lapsed ones). */
  async start(concurrency: number): Promise<void> {
    await this.recover();
    this.deps.queue.consume((id) => this.process(id), concurrency);
    if (!this.deps.exclusive) {
      this.timer = setInterval(() => (this.sweeping = this.sweeping.then(() => this.sweep())), Math.max(100, Math.floor(this.deps.leaseMs / 3)));
      this.timer.unref();
    }
  }

  /** Jobs whose worker is gone go back to the queue (or fail after too many attempts); on the data folder every `queued` job is queued again in order. */
  async recover(): Promise<void> {
    const { jobs, queue, exclusive } = this.deps;
    await this.reclaim(exclusive);
    if (exclusive) for (const job of await jobs.listByStatus('queued')) await queue.enqueue(job.id);
  }

  /** Stores the input (if uploaded: its bytes, or a temporary file of the blob store, which is taken over) and the record, which queues the job. */
  async submit(job: JobRecord, image?: Uint8Array | { path: string }): Promise<void> {
    const { blobs, jobs } = this.deps;
    if (image instanceof Uint8Array) await blobs.put(inputBlob(job.id), image);
    else if (image) await blobs.putFile(inputBlob(job.id), image.path);
    try {
      await jobs.insert(job);
    } catch (err) {
      // The other request's job was stored instead: this input belongs to no job.
      if (image && err instanceof IdempotencyConflict) await blobs.delete(inputBlob(job.id));
      throw err;
    }
  }

  /** Cancels a queued or running job, wherever it runs, and returns it; a finished job is returned unchanged. */
  async cancel(id: string): Promise<JobRecord | undefined> {
    const running = this.active.get(id);
    if (running) {
      running.controller.abort(CANCELED);
      await running.done;
    }
    const job = await this.deps.jobs.cancel(id);
    // A run of this process that claimed the job while the cancel was being written stops now; its result would be dropped anyway.
    const late = this.active.get(id);
    if (late) {
      late.controller.abort(CANCELED);
      await late.done;
    }
    return job;
  }

  /** Stops taking jobs; running jobs go back to `queued` for another worker, or for the next start on the same data. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const { controller } of this.active.values()) controller.abort(SHUTDOWN);
    await this.deps.queue.close();
    await this.sweeping;
    await this.deps.pool.close();
  }

  /** Renews the leases of running jobs (stopping those this runner lost), then reclaims lapsed leases of others. */
  private async sweep(): Promise<void> {
    if (this.closed) return;
    const { jobs, leaseMs, log } = this.deps;
    try {
      const ids = [...this.active.keys()];
      if (ids.length > 0) {
        const held = new Set(await jobs.renew(this.id, ids, leaseMs));
        for (const id of ids) if (!held.has(id)) this.active.get(id)?.controller.abort(LOST);
      }
      await this.reclaim(false);
    } catch (err) {
      log({ level: 'warn', msg: 'lease sweep failed', worker: this.id, err: (err as Error).message });
    }
  }

  private async reclaim(all: boolean): Promise<void> {
    const { requeued, failed } = await this.deps.jobs.reclaim({ all, maxAttempts: this.deps.limits.maxAttempts });
    for (const job of requeued) this.deps.log({ level: 'warn', msg: 'job interrupted; queued again', job: job.id, attempts: job.attempts, worker: this.id });
    for (const job of failed) this.deps.log({ level: 'warn', msg: 'job failed: interrupted too many times', job: job.id, attempts: job.attempts, worker: this.id });
  }

  private process(id: string): Promise<void> {
    if (this.active.has(id)) return Promise.resolve();
    // Delivered while stopping: the job goes back to the queue for another worker (the data folder's queue, closed by
    // now, ignores it; the next start queues every queued job again).
    if (this.closed) return this.deps.queue.enqueue(id);
    const controller = new AbortController();
    const done = this.work(id, controller.signal).finally(() => {
      this.active.delete(id);
      this.lastProgress.delete(id);
      this.progressWrites.delete(id);
    });
    this.active.set(id, { controller, done });
    return done;
  }

  private async work(id: string, signal: AbortSignal): Promise<void> {
    const { jobs, blobs, pool, limits, policy, log, leaseMs } = this.deps;
    // A cancel or a shutdown that came before the claim leaves the job alone; the claim itself is one conditional step
    // in the store, so a cancel written there first is never overwritten by `running`.
    if (signal.aborted) {
      if (signal.reason === SHUTDOWN) await this.deps.queue.enqueue(id);
      return;
    }
    const claimed = await jobs.claim(id, this.id, leaseMs);
    if (!claimed) return;
    const started = Date.now();
    log({ msg: 'job started', job: id, model: claimed.model, attempt: claimed.attempts, worker: this.id });
    const model = findModel(claimed.model);
    try {
      if (!model) throw new TaskError('unknown_model', `model "${claimed.model}" is not in the catalog`);
      let image = await blobs.get(inputBlob(id));
      if (!image) {
        if (claimed.input.kind !== 'url') throw new TaskError('input_missing', 'the uploaded image of this job is missing from the blob store');
        image = (await fetchImage(claimed.input.url, { policy, timeoutMs: limits.fetchTimeoutMs, maxBytes: limits.maxImageBytes, maxRedirects: limits.maxRedirects, signal })).bytes;
        await checkImage(image, limits);
        await blobs.put(inputBlob(id), image);
      }
      this.progress(id, 10);
      const bytes = await pool.run({ model: model.id, image, signal, timeoutMs: limits.jobTimeoutMs, onProgress: (f) => this.progress(id, 10 + f * 85) });
      signal.throwIfAborted();
      const asset = { format: model.format, mediaType: model.mediaType, byteLength: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      await blobs.put(assetBlob({ id, asset }), bytes);
      const done = await jobs.updateHeld(id, this.id, { status: 'succeeded', progress: 100, asset, finishedAt: new Date().toISOString() });
      log({ msg: done ? 'job succeeded' : 'job finished after it was canceled or reclaimed; result dropped', job: id, model: model.id, bytes: bytes.length, ms: Date.now() - started, worker: this.id });
    } catch (err) {
      if (signal.aborted && signal.reason === SHUTDOWN) {
        await jobs.updateHeld(id, this.id, { status: 'queued', progress: 0, attempts: claimed.attempts - 1, startedAt: null });
        log({ msg: 'job handed back at shutdown', job: id, worker: this.id });
        return;
      }
      if (signal.aborted && (signal.reason === CANCELED || signal.reason === LOST)) {
        if (signal.reason === CANCELED) await jobs.updateHeld(id, this.id, { status: 'canceled', finishedAt: new Date().toISOString() });
        log({ msg: signal.reason === CANCELED ? 'job canceled' : 'job lease lost; stopped', job: id, worker: this.id });
        return;
      }
      const error = describe(err);
      log({ level: error.code === 'internal_error' ? 'error' : 'info', msg: 'job failed', job: id, code: error.code, ...(error.code === 'internal_error' ? { err: err instanceof Error ? (err.stack ?? err.message) : String(err) } : {}), worker: this.id });
      await jobs.updateHeld(id, this.id, { status: 'failed', error, finishedAt: new Date().toISOString() });
    }
  }

  /** Records progress when it has moved by at least 5 points. */
  private progress(id: string, value: number): void {
    const rounded = Math.min(99, Math.max(0, Math.floor(value)));
    if (rounded - (this.lastProgress.get(id) ?? 0) < 5) return;
    this.lastProgress.set(id, rounded);
    const write = (this.progressWrites.get(id) ?? Promise.resolve())
      .then(() => this.deps.jobs.updateHeld(id, this.id, { progress: rounded }))
      .then(
        () => {},
        (err: Error) => this.deps.log({ level: 'warn', msg: 'progress not saved', job: id, err: err.message }),
      );
    this.progressWrites.set(id, write);
  }
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof TaskError || err instanceof FetchError || err instanceof ImageRejection) return { code: err.code, message: err.message };
  return { code: 'internal_error', message: 'the job failed because of an internal error of the service' };
}
