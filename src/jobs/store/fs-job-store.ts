/** Job records on the file system: one JSON file per job, written atomically, all held in memory for reads. One process owns the folder. */
import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-file.ts';
import { loadJsonRecords } from './json-record-folder.ts';
import { statsOf } from './job-stats.ts';
import { IdempotencyConflict, interruptedError, type JobPatch, type JobRecord, type JobStats, type JobStatus, type JobStore, type ReclaimResult } from './types.ts';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** Problems met while loading, one line each (for the service log). */
type LoadWarning = string;

/** Options of the file job store. */
export interface FsJobStoreOptions {
  warn?: (w: LoadWarning) => void;
  /** Called whenever a job becomes `queued` (the in-process queue). */
  onQueued?: (id: string) => Promise<void>;
  /** Called after every stored change of a job whose status or progress moved. */
  onChanged?: (id: string) => void;
}

/** A `JobStore` over `<dir>/<id>.json`. */
export class FsJobStore implements JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly writes = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly dir: string,
    private readonly onQueued: (id: string) => Promise<void>,
    private readonly onChanged: (id: string) => void,
  ) {}

  /** Opens (creating if needed) the store in `dir` and loads every record; unreadable files are set aside as `.corrupt`. */
  static async open(dir: string, options: FsJobStoreOptions = {}): Promise<FsJobStore> {
    const warn = options.warn ?? (() => {});
    const store = new FsJobStore(dir, options.onQueued ?? (async () => {}), options.onChanged ?? (() => {}));
    const isJob = (j: unknown): boolean => typeof (j as Partial<JobRecord> | null)?.id === 'string' && typeof (j as Partial<JobRecord>).status === 'string';
    for (const job of await loadJsonRecords<JobRecord>(dir, 'job', isJob, warn)) store.jobs.set(job.id, job);
    return store;
  }

  async insert(job: JobRecord): Promise<void> {
    if (!ID_PATTERN.test(job.id)) throw new Error(`job id "${job.id}" is not a safe file name`);
    if (this.jobs.has(job.id)) throw new Error(`job ${job.id} exists already`);
    if (job.idempotency && (await this.findByIdempotencyKey(job.owner, job.idempotency.key))) throw new IdempotencyConflict(job.owner, job.idempotency.key);
    await this.write(job.id, () => ({ ...job }));
    if (job.status === 'queued') await this.onQueued(job.id);
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const job = this.jobs.get(id);
    return job && { ...job };
  }

  async update(id: string, patch: JobPatch): Promise<JobRecord> {
    if (!this.jobs.has(id)) throw new Error(`job ${id} does not exist`);
    return (await this.write(id, (current) => ({ ...current!, ...patch, updatedAt: new Date().toISOString() })))!;
  }

  async listByOwner(owner: string, limit: number): Promise<JobRecord[]> {
    const mine = [...this.jobs.values()].filter((j) => j.owner === owner);
    mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
    return mine.slice(0, limit).map((j) => ({ ...j }));
  }

  async listByStatus(status: JobStatus): Promise<JobRecord[]> {
    const found = [...this.jobs.values()].filter((j) => j.status === status);
    found.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
    return found.map((j) => ({ ...j }));
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<JobRecord | undefined> {
    for (const job of this.jobs.values()) {
      if (job.owner === owner && job.idempotency?.key === key) return { ...job };
    }
    return undefined;
  }

  async claim(id: string, worker: string, leaseMs: number): Promise<JobRecord | undefined> {
    if (!this.jobs.has(id)) return undefined;
    return this.write(id, (current) => {
      if (current?.status !== 'queued') return undefined;
      const now = new Date();
      return { ...current, status: 'running', progress: 1, attempts: current.attempts + 1, startedAt: now.toISOString(), updatedAt: now.toISOString(), lease: { owner: worker, until: new Date(now.getTime() + leaseMs).toISOString() } };
    });
  }

  async renew(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]> {
    const held: string[] = [];
    for (const id of ids) {
      const job = this.jobs.get(id);
      if (job?.status === 'running' && job.lease?.owner === worker) {
        job.lease = { owner: worker, until: new Date(Date.now() + leaseMs).toISOString() };
        held.push(id);
      }
    }
    return held;
  }

  async updateHeld(id: string, worker: string, patch: JobPatch): Promise<JobRecord | undefined> {
    if (!this.jobs.has(id)) return undefined;
    const next = await this.write(id, (current) => {
      if (current?.status !== 'running' || current.lease?.owner !== worker) return undefined;
      const ends = patch.status !== undefined && patch.status !== 'running';
      return { ...current, ...patch, ...(ends ? { lease: null } : {}), updatedAt: new Date().toISOString() };
    });
    if (next?.status === 'queued') await this.onQueued(id);
    return next;
  }

  async cancel(id: string): Promise<JobRecord | undefined> {
    if (!this.jobs.has(id)) return undefined;
    const canceled = await this.write(id, (current) =>
      current?.status === 'queued' || current?.status === 'running' ? { ...current, status: 'canceled', lease: null, updatedAt: new Date().toISOString(), finishedAt: new Date().toISOString() } : undefined,
    );
    return canceled ?? this.get(id);
  }

  async reclaim(options: { all: boolean; maxAttempts: number }): Promise<ReclaimResult> {
    const result: ReclaimResult = { requeued: [], failed: [] };
    const now = Date.now();
    for (const job of await this.listByStatus('running')) {
      if (!options.all && job.lease && Date.parse(job.lease.until) > now) continue;
      const next = await this.write(job.id, (current) => {
        if (current?.status !== 'running') return undefined;
        const stamp = new Date().toISOString();
        if (current.attempts >= options.maxAttempts) return { ...current, status: 'failed', lease: null, updatedAt: stamp, finishedAt: stamp, error: interruptedError(current.attempts) };
        return { ...current, status: 'queued', progress: 0, lease: null, updatedAt: stamp };
      });
      if (next?.status === 'queued') {
        result.requeued.push(next);
        await this.onQueued(next.id);
      } else if (next) result.failed.push(next);
    }
    return result;
  }

  async stats(): Promise<JobStats> {
    return statsOf(this.jobs.values());
  }

  async check(): Promise<void> {
    await access(this.dir, constants.W_OK);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.writes.values()]);
  }

  /** Writes the record `next()` makes from the latest state (undefined: no change), after the previous write of the same job, then publishes it to readers. */
  private write(id: string, next: (current: JobRecord | undefined) => JobRecord | undefined): Promise<JobRecord | undefined> {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const done = previous
      .catch(() => {})
      .then(async () => {
        const current = this.jobs.get(id);
        const job = next(current && { ...current });
        if (!job) return undefined;
        await writeFileAtomic(join(this.dir, `${id}.json`), `${JSON.stringify(job, null, 2)}\n`);
        this.jobs.set(id, job);
        if (current && (current.status !== job.status || current.progress !== job.progress)) this.onChanged(id);
        return { ...job };
      });
    this.writes.set(id, done);
    void done
      .finally(() => {
        if (this.writes.get(id) === done) this.writes.delete(id);
      })
      .catch(() => {});
    return done;
  }
}
