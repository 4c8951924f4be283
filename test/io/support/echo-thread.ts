/** A thread module for test/io/worker-pool.test.ts: TypeScript, so that it loads only through the pool's loader. */
import { threadId, workerData } from 'node:worker_threads';

const started = workerData as { greeting: string };

/** Answers with the thread's greeting, the task and the thread it ran on. */
export default function echo(task: number): { greeting: string; task: number; thread: number } {
  return { greeting: started.greeting, task, thread: threadId };
}
