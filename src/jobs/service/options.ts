/** The settings of the job service and their defaults. */
import { availableParallelism } from 'node:os';
import { DEFAULT_MAX_PIXELS } from '../models/raster.ts';
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
  /** Leave jobs queued instead of running them (a service that only takes requests). */
  processJobs?: boolean;
  /** Log requests and job events as JSON lines on stdout. */
  logger?: boolean;
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

/** The default port of `npm run jobs -- serve`. */
export const DEFAULT_PORT = 8787;

/** Jobs at once by default: one per core beyond the first, between 1 and 4. */
export function defaultConcurrency(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}
