/** A job store that hands every pushed status change (running, succeeded, failed, canceled) of a job with a webhook to `onEvent`. */
import type { JobPatch, JobRecord, JobStats, JobStatus, JobStore, ReclaimResult } from '../store/types.ts';

/** Receives a job right after one of its status changes was stored; it must not throw. */
export type JobEventSink = (job: JobRecord) => Promise<void>;

/** Wraps `jobs`: the changes are the store's own, the events follow each stored change that this process made. */
export class EventedJobStore implements JobStore {
  constructor(
    private readonly jobs: JobStore,
    private readonly onEvent: JobEventSink,
  ) {}

  insert(job: JobRecord): Promise<void> {
    return this.jobs.insert(job);
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.jobs.get(id);
  }

  async update(id: string, patch: JobPatch): Promise<JobRecord> {
    const job = await this.jobs.update(id, patch);
    if (patch.status !== undefined) await this.onEvent(job);
    return job;
  }

  listByOwner(owner: string, limit: number): Promise<JobRecord[]> {
    return this.jobs.listByOwner(owner, limit);
  }

  listByStatus(status: JobStatus): Promise<JobRecord[]> {
    return this.jobs.listByStatus(status);
  }

  findByIdempotencyKey(owner: string, key: string): Promise<JobRecord | undefined> {
    return this.jobs.findByIdempotencyKey(owner, key);
  }

  async claim(id: string, worker: string, leaseMs: number): Promise<JobRecord | undefined> {
    const job = await this.jobs.claim(id, worker, leaseMs);
    if (job) await this.onEvent(job);
    return job;
  }

  renew(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]> {
    return this.jobs.renew(worker, ids, leaseMs);
  }

  async updateHeld(id: string, worker: string, patch: JobPatch): Promise<JobRecord | undefined> {
    const job = await this.jobs.updateHeld(id, worker, patch);
    if (job && patch.status !== undefined) await this.onEvent(job);
    return job;
  }

  async cancel(id: string): Promise<JobRecord | undefined> {
    const before = await this.jobs.get(id);
    const job = await this.jobs.cancel(id);
    // A job that had finished before is returned unchanged: no event.
    if (job?.status === 'canceled' && (before?.status === 'queued' || before?.status === 'running')) await this.onEvent(job);
    return job;
  }

  async reclaim(options: { all: boolean; maxAttempts: number }): Promise<ReclaimResult> {
    const result = await this.jobs.reclaim(options);
    for (const job of result.failed) await this.onEvent(job);
    return result;
  }

  stats(): Promise<JobStats> {
    return this.jobs.stats();
  }

  check(): Promise<void> {
    return this.jobs.check();
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
