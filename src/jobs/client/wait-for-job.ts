/**
 * Waits for a job to finish: it follows the job's event stream when the API offers one, and polls otherwise (backoff
 * with jitter between polls); an overall deadline, progress reported on the way.
 */
import { backoffDelay, POLL_BACKOFF, RETRY_BACKOFF, sleep, type BackoffOptions } from './backoff.ts';
import { JobApiError } from './job-api-error.ts';
import type { JobClient } from './job-client.ts';
import type { ApiJob } from './parse-job.ts';

/** How to wait. */
export interface WaitOptions {
  /** The longest wait for the job to finish, in milliseconds; default 10 minutes. */
  timeoutMs?: number;
  /** The delays between polls, and between connections to a stream that broke. */
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** Told about every state seen. */
  onUpdate?: (job: ApiJob) => void;
  /** Follow `GET /v1/jobs/{id}/events` when the API offers it (default); false: poll only. */
  stream?: boolean;
}

/** The default overall timeout. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/** Connections in a row that bring no news before the stream is given up for polling. */
const MAX_QUIET_RECONNECTS = 3;

const isFinal = (job: ApiJob): boolean => job.status === 'succeeded' || job.status === 'failed' || job.status === 'canceled';

/**
 * Waits until the job is `succeeded` (returned), `failed` or `canceled` (a JobApiError with the job's error), or the
 * deadline passes (kind `timeout`). The stream is read until the job finishes, reconnecting with `Last-Event-ID`
 * when it breaks; an API without one (or a stream that keeps breaking) is polled, the delay growing while progress
 * stands still and starting over when it moves.
 */
export async function waitForJob(client: JobClient, first: ApiJob, options: WaitOptions = {}): Promise<ApiJob> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  const backoff = options.backoff ?? POLL_BACKOFF;
  let job = first;
  options.onUpdate?.(job);
  if (!isFinal(job) && options.stream !== false) job = await follow(client, job, deadline, timeoutMs, options);
  let still = 0;
  for (;;) {
    if (isFinal(job)) return settled(job);
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(job, timeoutMs);
    try {
      await sleep(Math.min(left, backoffDelay(still, backoff)), options.signal);
    } catch {
      throw aborted(job);
    }
    const next = await client.getJob(job.id);
    if (next.id !== job.id) throw new JobApiError('garbage', `asked for job ${job.id}, the API answered with job ${next.id}`);
    still = next.progress === job.progress && next.status === job.status ? still + 1 : 0;
    job = next;
    options.onUpdate?.(job);
  }
}

/** Follows the event stream until the job finishes; returns the last state seen, to be polled on when the API offers no stream. */
async function follow(client: JobClient, first: ApiJob, deadline: number, timeoutMs: number, options: WaitOptions): Promise<ApiJob> {
  let job = first;
  let lastEventId: string | undefined;
  let quiet = 0;
  while (!isFinal(job)) {
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(job, timeoutMs);
    const timer = AbortSignal.timeout(left);
    const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
    let news = false;
    try {
      const events = await client.openJobEvents(job.id, { lastEventId, signal });
      if (!events) return job;
      for await (const event of events) {
        lastEventId = event.id ?? lastEventId;
        job = event.job;
        news = true;
        options.onUpdate?.(job);
        if (isFinal(job)) return job;
      }
    } catch (error) {
      if (options.signal?.aborted) throw aborted(job);
      if (timer.aborted) throw timedOut(job, timeoutMs);
      // A stream that sends what the API does not document: polling reads (and checks) the job itself.
      if (error instanceof JobApiError) return job;
    }
    // The stream ended or broke before the job finished: connect again, resuming after the last event.
    quiet = news ? 0 : quiet + 1;
    if (quiet >= MAX_QUIET_RECONNECTS) return job;
    try {
      await sleep(Math.min(Math.max(0, deadline - Date.now()), backoffDelay(quiet, options.backoff ?? RETRY_BACKOFF)), options.signal);
    } catch {
      throw aborted(job);
    }
  }
  return job;
}

/** A finished job: returned when it succeeded, an error saying why otherwise. */
function settled(job: ApiJob): ApiJob {
  if (job.status === 'succeeded') return job;
  if (job.status === 'failed') {
    const why = job.error ? `${job.error.message} (${job.error.code})` : 'the API gave no reason';
    throw new JobApiError('http', `job ${job.id} failed: ${why}`, undefined, job.error?.code ?? 'job_failed');
  }
  throw new JobApiError('http', `job ${job.id} was canceled`, undefined, 'job_canceled');
}

function timedOut(job: ApiJob, timeoutMs: number): JobApiError {
  return new JobApiError('timeout', `job ${job.id} did not finish within ${Number((timeoutMs / 1000).toFixed(1))} s (last seen ${job.status}, ${Math.round(job.progress)}%)`);
}

function aborted(job: ApiJob): JobApiError {
  return new JobApiError('aborted', `interrupted while waiting for job ${job.id}`);
}
