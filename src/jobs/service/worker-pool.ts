/** The model worker pool: piscina runs models on worker threads, so the HTTP server never blocks; abort and a per-run time limit stop the thread. */
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { threadModuleFile, workerPool } from '../../io/worker-pool.ts';
import type { ModelOutcome, ModelTask } from './model-worker.ts';

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
  /** Aborting stops the thread running the task; the task rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs: number;
}

/** Options of a pool. */
export interface WorkerPoolOptions {
  size: number;
  /** Idle threads are stopped after this long. */
  idleMs?: number;
  /** Heap limit of each thread. */
  maxHeapMb?: number;
}

/** Runs tasks on at most `size` worker threads, started on demand. */
export class WorkerPool {
  private readonly piscina: Piscina<ModelTask, ModelOutcome>;
  private closed = false;

  constructor(options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`the worker pool size must be a positive integer, got ${options.size}`);
    const file = threadModuleFile(import.meta.url, 'model-worker');
    if (!file) throw new Error(`the model worker's module is missing beside ${import.meta.url}`);
    this.piscina = workerPool<ModelTask, ModelOutcome>(file, { threads: options.size, idleMs: options.idleMs ?? 60_000, maxHeapMb: options.maxHeapMb ?? 2048 });
  }

  /** The threads running now (for tests and metrics). */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /** The bytes the model makes of the image. */
  async run(task: PoolTask): Promise<Uint8Array> {
    if (this.closed) throw new TaskError('shutdown', 'the worker pool is closed');
    if (task.signal?.aborted) throw abortReason(task.signal);
    const timeout = AbortSignal.timeout(task.timeoutMs);
    const signal = task.signal ? AbortSignal.any([task.signal, timeout]) : timeout;
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (fraction: number) => task.onProgress?.(fraction));
    let outcome: ModelOutcome;
    try {
      outcome = await this.piscina.run({ model: task.model, image: task.image, progress: port2 }, { signal, transferList: [port2] });
    } catch (err) {
      if (task.signal?.aborted) throw abortReason(task.signal);
      if (timeout.aborted) throw new TaskError('timeout', `the model ran longer than ${task.timeoutMs} ms`);
      if (this.closed) throw new TaskError('shutdown', 'the worker pool closed');
      throw new TaskError('worker_crashed', `the model worker failed: ${(err as Error).message}`);
    } finally {
      port1.close();
    }
    if (!outcome.ok) throw new TaskError(outcome.code, outcome.message);
    return outcome.bytes;
  }

  /** Stops every thread; running and waiting tasks reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }
}

/** The reason of an aborted signal as an error. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new TaskError('canceled', String(signal.reason));
}
