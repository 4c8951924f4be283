/** A first-in first-out queue in memory with bounded concurrency. It is durable together with the job store: on start the service enqueues every stored `queued` job again. */
import type { JobQueue } from './types.ts';

/** Told of an error that a handler let escape, with the job it was handling. */
export type QueueErrorReporter = (id: string, error: unknown) => void;

/** The single-process `JobQueue`. */
export class MemoryQueue implements JobQueue {
  /** `onError` hears of any error a handler lets escape; by default it is written to standard error with the job id. */
  constructor(
    private readonly onError: QueueErrorReporter = (id, error) =>
      process.stderr.write(`job ${id}: the queue's handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  ) {}

  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private handler: ((id: string) => Promise<void>) | undefined;
  private concurrency = 1;
  private closed = false;

  async enqueue(id: string): Promise<void> {
    if (this.closed || this.queued.has(id)) return;
    this.queued.add(id);
    this.waiting.push(id);
    this.pump();
  }

  consume(handler: (id: string) => Promise<void>, concurrency: number): void {
    if (this.handler) throw new Error('the queue has a consumer already');
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
    this.handler = handler;
    this.concurrency = concurrency;
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    this.queued.clear();
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    const handler = this.handler;
    if (!handler || this.closed) return;
    while (this.running.size < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.queued.delete(id);
      const run: Promise<void> = handler(id)
        .catch((error: unknown) => this.onError(id, error))
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }
}
