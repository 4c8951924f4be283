/** Polls a job until it finishes: backoff with jitter between polls, an overall deadline, progress reported on the way. */
import { backoffDelay, POLL_BACKOFF, sleep, type BackoffOptions } from './backoff.ts';
import { JobApiError } from './job-api-error.ts';
import type { JobClient } from './job-client.ts';
import type { ApiJob } from './parse-job.ts';

/** How to wait. */
export interface WaitOptions {
  /** The longest wait for the job to finish, in milliseconds; default 10 minutes. */
  timeoutMs?: number;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** Told about every poll. */
  onUpdate?: (job: ApiJob) => void;
}

/** The default overall timeout. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Polls `GET /v1/jobs/{id}` until the job is `succeeded` (returned), `failed` or `canceled` (a JobApiError with
 * the job's error), or the deadline passes (kind `timeout`). The delay grows while progress stands still and
 * starts over when it moves.
 */
export async function waitForJob(client: JobClient, first: ApiJob, options: WaitOptions = {}): Promise<ApiJob> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  const backoff = options.backoff ?? POLL_BACKOFF;
  let job = first;
  let still = 0;
  for (;;) {
    options.onUpdate?.(job);
    if (job.status === 'succeeded') return job;
    if (job.status === 'failed') {
      const why = job.error ? `${job.error.message} (${job.error.code})` : 'the API gave no reason';
      throw new JobApiError('http', `job ${job.id} failed: ${why}`, undefined, job.error?.code ?? 'job_failed');
    }
    if (job.status === 'canceled') throw new JobApiError('http', `job ${job.id} was canceled`, undefined, 'job_canceled');
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new JobApiError('timeout', `job ${job.id} did not finish within ${Number((timeoutMs / 1000).toFixed(1))} s (last seen ${job.status}, ${Math.round(job.progress)}%)`);
    }
    try {
      await sleep(Math.min(left, backoffDelay(still, backoff)), options.signal);
    } catch {
      throw new JobApiError('aborted', `interrupted while waiting for job ${job.id}`);
    }
    const next = await client.getJob(job.id);
    if (next.id !== job.id) throw new JobApiError('garbage', `asked for job ${job.id}, the API answered with job ${next.id}`);
    still = next.progress === job.progress && next.status === job.status ? still + 1 : 0;
    job = next;
  }
}
