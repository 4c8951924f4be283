/**
 * Sharing one thread between synchronous work and the event loop. A build's thread does many short synchronous steps
 * (a file written, a file read, a folder listed) while other threads wait on it: the render threads for their next
 * page, Pagefind for its input. A loop of such steps that never lets the event loop turn leaves those threads idle
 * until it ends; this queue hands the loop a turn every few milliseconds.
 */

/** Milliseconds of synchronous work between two turns of the event loop, by default. */
const SLICE_MS = 8;

/**
 * Runs synchronous jobs one after another, in the order given, in slices of at most `sliceMs` with a turn of the event
 * loop between slices. A job handed in while a slice runs waits for its turn in the queue, so that a loop handing in
 * thousands of jobs at once does not hold the thread for all of them.
 */
export class SlicedQueue {
  private jobs: Array<(() => void) | undefined> = [];
  private head = 0;
  private scheduled = false;

  constructor(readonly sliceMs = SLICE_MS) {}

  /** Jobs waiting to run. */
  get pending(): number {
    return this.jobs.length - this.head;
  }

  /** Runs `work` in its turn; resolves to what it returns (or what the promise it returns resolves to). */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error as Error);
        }
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.drain);
      }
    });
  }

  private readonly drain = (): void => {
    const end = performance.now() + this.sliceMs;
    do {
      const job = this.jobs[this.head];
      this.jobs[this.head++] = undefined;
      job!();
    } while (this.head < this.jobs.length && performance.now() < end);
    if (this.head < this.jobs.length) {
      // The queue is compacted now and then, so that a long build does not keep a long array of spent slots.
      if (this.head > 4096) {
        this.jobs = this.jobs.slice(this.head);
        this.head = 0;
      }
      setImmediate(this.drain);
      return;
    }
    this.jobs = [];
    this.head = 0;
    this.scheduled = false;
  };
}
