/** The settings of the job service and their defaults. */
import { availableParallelism } from 'node:os';
import { DEFAULT_MAX_PIXELS } from '../models/raster.ts';
import type { WebhookOptions } from '../webhooks/webhook-dispatcher.ts';
import type { EventStreamOptions } from './event-stream.ts';
import type { RunnerLimits } from './job-runner.ts';

/** Per-key request limits; each window is fixed and starts with a key's first request in it. */
export interface RateLimits {
  windowMs: number;
  /** Requests per window to the whole `/v1` API. */
  maxRequests: number;
  /** Job creations (`POST /v1/jobs`) per window. */
  maxCreates: number;
}

/** Which parts of the service a process runs: the HTTP API, the model workers, or both. */
export type ServiceRole = 'api' | 'worker' | 'all';

/** Everything `startJobService` accepts. */
export interface JobServiceOptions {
  /** The folder that keeps jobs, assets and keys; with a database, only the blobs (inputs and assets). */
  dataDir: string;
  /** A `postgres://` URL: jobs, keys and the queue live in this database, shared by any number of processes. */
  databaseUrl?: string;
  /** Inputs and assets in an S3-compatible store (`s3://<bucket>/<prefix>`) instead of the data folder; `env` holds the AWS variables its client reads. */
  blobStore?: { url: string; env: Readonly<Record<string, string | undefined>>; source?: string };
  /** `all` unless given; `api` and `worker` need a database. */
  role?: ServiceRole;
  /** How long a worker's claim on a running job holds without renewal (Postgres); a worker that dies loses its jobs after this. */
  leaseMs?: number;
  /** 8787 unless given; 0 picks a free port. A worker listens (health and metrics only) when a port is given. */
  port?: number;
  /** 127.0.0.1 unless given. */
  host?: string;
  /** Let `image_url` reach loopback addresses (127.0.0.0/8, ::1). */
  allowLoopbackFetch?: boolean;
  /** Let `image_url` reach private and link-local addresses. */
  allowPrivateFetch?: boolean;
  /** Serve the sign-up page that issues keys to anyone who asks. */
  openSignup?: boolean;
  /** How many jobs run at once, each on its own worker thread. */
  concurrency?: number;
  /** Build `download_url` on this origin instead of the request's host. */
  publicUrl?: string;
  limits?: Partial<RunnerLimits>;
  rateLimit?: Partial<RateLimits>;
  /** Time limits of requests and the cap on connections per client address. */
  connections?: Partial<ConnectionLimits>;
  /** How many uploads are read at once. */
  uploads?: Partial<UploadLimits>;
  /** Leave jobs queued instead of running them (a service that only takes requests). */
  processJobs?: boolean;
  /** Log requests and job events as JSON lines on stdout. */
  logger?: boolean;
  /** How webhook deliveries are sent and retried. */
  webhooks?: Partial<WebhookOptions>;
  /** The heartbeat and the fallback reads of `GET /v1/jobs/{id}/events`. */
  events?: Partial<EventStreamOptions>;
}

/** The default limits of jobs and images. */
export const DEFAULT_LIMITS: RunnerLimits = {
  maxImageBytes: 20 * 1024 * 1024,
  maxImagePixels: DEFAULT_MAX_PIXELS,
  fetchTimeoutMs: 15_000,
  maxRedirects: 3,
  jobTimeoutMs: 120_000,
  maxAttempts: 2,
};

/** The default lease of a running job: renewed every third of it, lost this long after its worker died. */
export const DEFAULT_LEASE_MS = 30_000;

/** The default per-key rate limits. */
export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 60_000, maxRequests: 600, maxCreates: 60 };

/** Limits on client connections: how long a request may take to arrive, how long a socket may idle, how many one address holds. */
export interface ConnectionLimits {
  /** Every request's headers must arrive within this (0: no limit). */
  headersTimeoutMs: number;
  /** Every request, headers and body, must arrive within this (0: no limit). */
  requestTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed (0: never). */
  idleTimeoutMs: number;
  /** How long a kept-alive connection waits for its next request; longer than a load balancer's idle limit (often 60 s), so that it closes first. */
  keepAliveTimeoutMs: number;
  /** Open connections per client address (an IPv6 client by its /64); 0: no cap. */
  maxConnectionsPerAddress: number;
}

/** The default connection limits: Node's own 5 minutes for a whole request (20 MiB at 70 KB/s), 10 s for its headers. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 72_000,
  maxConnectionsPerAddress: 32,
};

/** How many multipart uploads are read at once. */
export interface UploadLimits {
  /** In all; beyond it a new upload gets 503 with Retry-After. */
  maxUploads: number;
  /** Per API key; beyond it a new upload gets 429 with Retry-After. */
  maxUploadsPerKey: number;
}

/** The default upload limits. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxUploads: 32, maxUploadsPerKey: 8 };

/** The connection limits with their defaults; throws naming the field that is wrong. */
export function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...defined(given) };
  for (const [name, value] of Object.entries(limits)) {
    wholeNumber(`connections.${name}`, value, name === 'keepAliveTimeoutMs' ? 1 : 0);
    // Node's timers take a longer delay as 1 ms.
    if (name.endsWith('Ms') && value > MAX_TIMER_MS) throw new Error(`connections.${name} must be at most ${MAX_TIMER_MS} ms, got ${value}`);
  }
  const { headersTimeoutMs: headers, requestTimeoutMs: request } = limits;
  if (headers > 0 && request > 0 && headers > request) {
    throw new Error(`connections.headersTimeoutMs (${headers}) must not exceed connections.requestTimeoutMs (${request}): the headers are part of the request`);
  }
  return limits;
}

/** The upload limits with their defaults; throws naming the field that is wrong. */
export function uploadLimits(given: Partial<UploadLimits> = {}): UploadLimits {
  const limits = { ...DEFAULT_UPLOAD_LIMITS, ...defined(given) };
  for (const [name, value] of Object.entries(limits)) wholeNumber(`uploads.${name}`, value, 1);
  return limits;
}

/** The longest delay a Node timer keeps (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The fields that are set: one given as undefined keeps its default. */
function defined<T extends object>(given: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function wholeNumber(field: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new Error(`${field} must be a whole number of at least ${min}, got ${String(value)}`);
}

/** The default port of `npm run jobs -- serve`. */
export const DEFAULT_PORT = 8787;

/** Jobs at once by default: one per core beyond the first, between 1 and 4. */
export function defaultConcurrency(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}
