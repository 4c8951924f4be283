/** Job records on the file system: one JSON file per job, written atomically, all held in memory for reads. */
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryFile, writeFileAtomic } from '../../io/atomic-file.ts';
import type { JobRecord, JobStatus, JobStore } from './types.ts';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** Problems met while loading, one line each (for the service log). */
export type LoadWarning = string;

/** A `JobStore` over `<dir>/<id>.json`. */
export class FsJobStore implements JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly writes = new Map<string, Promise<unknown>>();

  private constructor(private readonly dir: string) {}

  /** Opens (creating if needed) the store in `dir` and loads every record; unreadable files are set aside as `.corrupt`. */
  static async open(dir: string, warn: (w: LoadWarning) => void = () => {}): Promise<FsJobStore> {
    await mkdir(dir, { recursive: true });
    const store = new FsJobStore(dir);
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      if (isTemporaryFile(name)) {
        await rm(path, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        const job = JSON.parse(await readFile(path, 'utf8')) as JobRecord;
        if (typeof job?.id !== 'string' || `${job.id}.json` !== name || typeof job.status !== 'string') throw new Error('not a job record');
        store.jobs.set(job.id, job);
      } catch (err) {
        await rename(path, `${path}.corrupt`);
        warn(`job file ${path} is unreadable (${(err as Error).message}); moved aside to ${name}.corrupt`);
      }
    }
    return store;
  }

  async insert(job: JobRecord): Promise<void> {
    if (!ID_PATTERN.test(job.id)) throw new Error(`job id "${job.id}" is not a safe file name`);
    if (this.jobs.has(job.id)) throw new Error(`job ${job.id} exists already`);
    await this.write(job.id, () => ({ ...job }));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const job = this.jobs.get(id);
    return job && { ...job };
  }

  async update(id: string, patch: Partial<Omit<JobRecord, 'id' | 'owner' | 'createdAt'>>): Promise<JobRecord> {
    if (!this.jobs.has(id)) throw new Error(`job ${id} does not exist`);
    const next = await this.write(id, () => ({ ...this.jobs.get(id)!, ...patch, updatedAt: new Date().toISOString() }));
    return { ...next };
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

  async close(): Promise<void> {
    await Promise.allSettled([...this.writes.values()]);
  }

  /** Writes the record `next()` makes from the latest state, after the previous write of the same job, then publishes it to readers. */
  private write(id: string, next: () => JobRecord): Promise<JobRecord> {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const done = previous
      .catch(() => {})
      .then(async () => {
        const job = next();
        await writeFileAtomic(join(this.dir, `${id}.json`), `${JSON.stringify(job, null, 2)}\n`);
        this.jobs.set(id, job);
        return job;
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
