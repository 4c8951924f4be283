/**
 * `GET /v1/jobs/{id}/events`: the job's status and progress as Server-Sent Events. Each event carries the job as it is
 * then, with an id that grows with every change, so that `Last-Event-ID` resumes after the last state a client saw;
 * the stream ends once the job has finished.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JobRecord, JobStatus, JobStore } from '../store/types.ts';
import { ApiError } from './api-error.ts';
import { toJobDocument } from './job-document.ts';
import type { JobWatch } from './job-watch.ts';

/** How a stream keeps its connection and its news fresh. */
export interface EventStreamOptions {
  /** A comment line this often keeps proxies and the idle limit from closing a quiet stream. */
  heartbeatMs: number;
  /** The job is read this often even without a change notification (one lost with a database connection). */
  pollMs: number;
}

/** The defaults: a heartbeat well inside the 60 s idle limit of the service and of most proxies. */
const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = { heartbeatMs: 15_000, pollMs: 5_000 };

/** The options with their defaults, the heartbeat inside half of the service's idle limit (`idleTimeoutMs`, 0: none); throws naming the field that is wrong. */
export function eventStreamOptions(given: Partial<EventStreamOptions> = {}, idleTimeoutMs = 0): EventStreamOptions {
  const heartbeatMs = idleTimeoutMs > 0 ? Math.max(1, Math.min(DEFAULT_EVENT_STREAM_OPTIONS.heartbeatMs, Math.floor(idleTimeoutMs / 2))) : DEFAULT_EVENT_STREAM_OPTIONS.heartbeatMs;
  const options: EventStreamOptions = { ...DEFAULT_EVENT_STREAM_OPTIONS, heartbeatMs, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  for (const name of ['heartbeatMs', 'pollMs'] as const) {
    const value: unknown = options[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 2 ** 31 - 1) throw new Error(`events.${name} must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got ${String(value)}`);
  }
  return options;
}

/** How long a browser's EventSource waits before it reconnects. */
const RETRY_MS = 2_000;

const FINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'canceled']);
const RANK: Record<JobStatus, number> = { queued: 0, running: 1, succeeded: 2, failed: 2, canceled: 2 };

/** The id of the event that carries `job` as it is: when it changed, then how far along it is. */
function eventId(job: Pick<JobRecord, 'updatedAt' | 'status' | 'progress'>): string {
  return `${Date.parse(job.updatedAt)}-${RANK[job.status]}-${Math.floor(job.progress)}`;
}

/** The parts of an event id to compare, or undefined when `raw` is not one. */
function idParts(raw: string | undefined): number[] | undefined {
  const match = raw === undefined ? null : /^(\d{1,15})-(\d)-(\d{1,3})$/.exec(raw.trim());
  return match ? match.slice(1).map(Number) : undefined;
}

/** True when the state with id `a` comes after the state with id `b`. */
function isLater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** What a stream reads. */
export interface EventStreamDeps {
  jobs: JobStore;
  watch: JobWatch;
  options: EventStreamOptions;
}

/** Answers with the event stream of job `id` (already checked to belong to the caller), or 406 for a client that takes no event stream. */
export function sendJobEvents(request: FastifyRequest, reply: FastifyReply, id: string, baseUrl: string, deps: EventStreamDeps): FastifyReply {
  const accept = request.headers.accept;
  if (accept !== undefined && !/text\/event-stream|\*\/\*/.test(accept)) {
    throw new ApiError(406, 'not_acceptable', 'the events of a job are a text/event-stream; send "Accept: text/event-stream" (or poll GET /v1/jobs/{id})');
  }
  const stream = new PassThrough();
  const header = request.headers['last-event-id'];
  let last = idParts(Array.isArray(header) ? header[0] : header);
  let ended = false;
  let reading: Promise<void> | undefined;
  let stale = false;

  const finish = (): void => {
    if (ended) return;
    ended = true;
    unwatch();
    clearInterval(heartbeat);
    clearInterval(poll);
    stream.end();
  };
  // Reads the job and sends it when it is newer than what the client has; a change during the read is read again.
  const look = (): void => {
    if (ended) return;
    if (reading) {
      stale = true;
      return;
    }
    reading = (async () => {
      do {
        stale = false;
        const job = await deps.jobs.get(id);
        if (!job || ended) return finish();
        const next = eventId(job);
        const parts = idParts(next)!;
        if (!last || isLater(parts, last)) {
          stream.write(`id: ${next}\nevent: job\ndata: ${JSON.stringify(toJobDocument(job, baseUrl))}\n\n`);
          last = parts;
        }
        if (FINAL.has(job.status)) return finish();
      } while (stale && !ended);
    })()
      .catch((err: Error) => request.log.warn({ job: id, err: err.message }, 'event stream read failed'))
      .finally(() => {
        reading = undefined;
        if (stale) look();
      });
  };

  const unwatch = deps.watch.watch(id, look);
  const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), deps.options.heartbeatMs);
  const poll = setInterval(look, deps.options.pollMs);
  heartbeat.unref();
  poll.unref();
  reply.raw.on('close', finish);
  stream.write(`retry: ${RETRY_MS}\n\n`);
  look();
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(stream);
}
