/** A bounded pool of worker threads that run models off the main thread, so the HTTP server never blocks. */
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './model-worker.ts';

const ENTRY = new URL('./model-worker-entry.mjs', import.meta.url);

/** Why a task did not produce bytes; `code` goes into the failed job's `error`. */
export class TaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TaskError';
  }
}

/** One model run. */
export interface PoolTask {
  model: string;
  image: Uint8Array;
  onProgress?: (fraction: number) => void;
  /** Aborting terminates the worker running the task; the task rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs: number;
}

interface Slot {
  worker: Worker;
  task: Running | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

interface Running {
  id: number;
  task: PoolTask;
  resolve(bytes: Uint8Array): void;
  reject(err: Error): void;
  cleanup(): void;
}

/** Options of a pool. */
export interface WorkerPoolOptions {
  size: number;
  /** Idle workers are stopped after this long. */
  idleMs?: number;
  /** Heap limit of each worker. */
  maxHeapMb?: number;
}

/** Runs tasks on at most `size` worker threads, started on demand. */
export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Array<Omit<Running, 'cleanup'>> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`the worker pool size must be a positive integer, got ${options.size}`);
  }

  /** The bytes the model makes of the image. */
  run(task: PoolTask): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new TaskError('shutdown', 'the worker pool is closed'));
    if (task.signal?.aborted) return Promise.reject(task.signal.reason);
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, task, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; running tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.waiting.splice(0)) waiting.reject(new TaskError('shutdown', 'the worker pool closed'));
    await Promise.all([...this.slots].map((slot) => this.stop(slot, new TaskError('shutdown', 'the worker pool closed'))));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      let slot = [...this.slots].find((s) => !s.task);
      if (!slot) {
        if (this.slots.size >= this.options.size) return;
        slot = this.spawn();
      }
      this.assign(slot, this.waiting.shift()!);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(ENTRY, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 2048 } });
    const slot: Slot = { worker, task: undefined, idleTimer: undefined };
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (err) => this.onExit(slot, new TaskError('worker_crashed', `the model worker failed: ${err.message}`)));
    worker.on('exit', (code) => this.onExit(slot, new TaskError('worker_crashed', `the model worker stopped unexpectedly (exit code ${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private assign(slot: Slot, next: Omit<Running, 'cleanup'>): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const { task } = next;
    const timer = setTimeout(() => void this.stop(slot, new TaskError('timeout', `the model ran longer than ${task.timeoutMs} ms`)), task.timeoutMs);
    const onAbort = (): void => void this.stop(slot, task.signal!.reason instanceof Error ? task.signal!.reason : new TaskError('canceled', String(task.signal!.reason)));
    task.signal?.addEventListener('abort', onAbort, { once: true });
    slot.task = {
      ...next,
      cleanup: () => {
        clearTimeout(timer);
        task.signal?.removeEventListener('abort', onAbort);
      },
    };
    const request: WorkerRequest = { id: next.id, model: task.model, image: task.image };
    slot.worker.postMessage(request);
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const running = slot.task;
    if (!running || running.id !== reply.id) return;
    if (reply.type === 'progress') {
      running.task.onProgress?.(reply.fraction);
      return;
    }
    running.cleanup();
    slot.task = undefined;
    if (reply.type === 'done') running.resolve(reply.bytes);
    else running.reject(new TaskError(reply.code, reply.message));
    if (!this.closed) {
      slot.idleTimer = setTimeout(() => void this.stop(slot, new TaskError('shutdown', 'idle')), this.options.idleMs ?? 60_000);
      slot.idleTimer.unref();
      this.dispatch();
    }
  }

  /** Fails the slot's task (if any) with `reason` and terminates its worker. */
  private async stop(slot: Slot, reason: Error): Promise<void> {
    this.fail(slot, reason);
    await slot.worker.terminate();
  }

  private onExit(slot: Slot, reason: Error): void {
    this.fail(slot, reason);
    if (!this.closed) this.dispatch();
  }

  private fail(slot: Slot, reason: Error): void {
    if (!this.slots.has(slot)) return;
    this.slots.delete(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const running = slot.task;
    slot.task = undefined;
    if (running) {
      running.cleanup();
      running.reject(reason);
    }
  }
}
