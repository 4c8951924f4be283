/** A thread that yields to the others: its own priority is lowered, not the process's. */
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadId } from '../../src/io/thread-priority.ts';

describe.runIf(process.platform === 'linux')('thread priority (Linux)', () => {
  it("names the calling thread: the main thread's id is the process id", () => {
    expect(threadId()).toBe(process.pid);
  });

  it('lowers the priority of the calling thread alone', async () => {
    const before = getPriority(process.pid);
    const worker = new Worker(new URL('../support/priority-thread.mjs', import.meta.url));
    try {
      const { yielded, tid } = await new Promise<{ yielded: boolean; tid: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(yielded).toBe(true);
      expect(tid).not.toBe(process.pid);
      expect(getPriority(tid)).toBe(19);
      expect(getPriority(process.pid)).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
