/** Polls a hosted task until it ends: backoff with jitter while nothing moves, an overall deadline, every poll reported. */
import { backoffDelay, POLL_BACKOFF, sleep } from '../client/backoff.ts';
import { JobApiError } from '../client/job-api-error.ts';
import type { FollowOptions, ProviderTask } from './provider.ts';

/** The default overall wait, the same as for a job of the job API (`--timeout` changes both). */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Calls `get` until the task succeeds (returned), fails or is canceled (a JobApiError of kind `http` without a status,
 * carrying the vendor's message, which `npm run submit` treats as final), or the deadline passes (kind `timeout`).
 */
export async function followTask(get: (id: string) => Promise<ProviderTask>, first: ProviderTask, name: string, options: FollowOptions): Promise<ProviderTask> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  const backoff = options.backoff ?? POLL_BACKOFF;
  let task = first;
  let still = 0;
  for (;;) {
    options.onUpdate?.(task);
    if (task.status === 'succeeded') return task;
    if (task.status === 'failed') throw new JobApiError('http', `${name} failed: ${task.error ?? `${task.vendorStatus}, and no reason was given`}`, undefined, 'task_failed');
    if (task.status === 'canceled') throw new JobApiError('http', `${name} was canceled${task.error ? `: ${task.error}` : ''}`, undefined, 'task_canceled');
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new JobApiError('timeout', `${name} did not finish within ${Number((timeoutMs / 1000).toFixed(1))} s (last seen ${task.vendorStatus}, ${Math.round(task.progress)}%)`);
    }
    try {
      await sleep(Math.min(left, backoffDelay(still, backoff)), options.signal);
    } catch {
      throw new JobApiError('aborted', `interrupted while waiting for ${name}`);
    }
    const next = await get(task.id);
    if (next.id !== task.id) throw new JobApiError('garbage', `asked for ${name}, the answer is about task ${next.id}`);
    still = next.progress === task.progress && next.status === task.status ? still + 1 : 0;
    task = next;
  }
}
