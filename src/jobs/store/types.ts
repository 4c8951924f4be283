/** The records of the job service and the small interfaces its storage and queue sit behind. */

/** Where a job is in its life. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';


/** Where the image of a job comes from. */
type JobInput =
  | { kind: 'url'; url: string }
  | { kind: 'upload'; filename: string | null; byteLength: number; sha256: string };

/** The finished asset of a job. */
interface AssetInfo {
  format: string;
  mediaType: string;
  byteLength: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
}

/** Everything stored about one job. */
export interface JobRecord {
  id: string;
  /** The id of the API key that created the job; only that key sees it. */
  owner: string;
  model: string;
  modelVersion: string;
  status: JobStatus;
  progress: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** How many times a worker has taken the job up. */
  attempts: number;
  input: JobInput;
  idempotency: { key: string; requestHash: string } | null;
  asset: AssetInfo | null;
  error: { code: string; message: string } | null;
  /** Who runs the job and until when the claim holds unless renewed; set only while `running`. */
  lease?: JobLease | null;
  /** Where its status changes are pushed, and the origin its `download_url` is built on there; absent on jobs made before webhooks. */
  webhook?: JobWebhook | null;
}

/** The webhook of a job. */
interface JobWebhook {
  url: string;
  /** The API origin the job document in a delivery is written against (the public URL, or the host the job was created through). */
  baseUrl: string;
}

/** A worker's claim on a running job. */
interface JobLease {
  /** The id of the runner that holds it. */
  owner: string;
  /** When it lapses unless renewed (RFC 3339). */
  until: string;
}

/** The changes `update` accepts. */
export type JobPatch = Partial<Omit<JobRecord, 'id' | 'owner' | 'createdAt'>>;

/** What a sweep of lapsed leases did. */
export interface ReclaimResult {
  /** Jobs put back in the queue. */
  requeued: JobRecord[];
  /** Jobs failed with code `interrupted` after too many attempts. */
  failed: JobRecord[];
}

/** Counts and durations for the metrics endpoint. */
export interface JobStats {
  byStatus: Record<JobStatus, number>;
  /** Per model: run durations (seconds from start to finish) of succeeded jobs, in histogram buckets. */
  durations: Array<{ model: string; count: number; sumSeconds: number; buckets: Array<{ le: number; count: number }> }>;
}

/** The upper bounds (seconds) of the duration histogram. */
export const DURATION_BUCKETS: readonly number[] = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * Durable job records. Every change that leaves a job `queued` (insert, reclaim, release) also hands its id to the
 * store's queue, in the same transaction where the two share a database, so that no queued job is left undelivered.
 */
export interface JobStore {
  /** Stores a new queued job and queues it; fails when the id exists, or with `IdempotencyConflict` when its idempotency key is taken. */
  insert(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Applies `patch` (and a fresh `updatedAt`) and returns the stored record. */
  update(id: string, patch: JobPatch): Promise<JobRecord>;
  /** The jobs of `owner`, newest first. */
  listByOwner(owner: string, limit: number): Promise<JobRecord[]>;
  /** Every job in `status`, oldest first. */
  listByStatus(status: JobStatus): Promise<JobRecord[]>;
  findByIdempotencyKey(owner: string, key: string): Promise<JobRecord | undefined>;
  /** Moves a `queued` job to `running` under a lease of `leaseMs` for `worker`, counting the attempt; undefined when it is not queued. */
  claim(id: string, worker: string, leaseMs: number): Promise<JobRecord | undefined>;
  /** Extends the leases of `worker` on `ids`; returns the ids it still holds (the others were canceled or reclaimed). */
  renew(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]>;
  /** Applies `patch` only while `worker` holds the job's lease; a new status other than `running` ends the lease (`queued` queues it again). */
  updateHeld(id: string, worker: string, patch: JobPatch): Promise<JobRecord | undefined>;
  /** Cancels a `queued` or `running` job; returns the job as it now is, or undefined when there is none. */
  cancel(id: string): Promise<JobRecord | undefined>;
  /** Running jobs whose lease lapsed (or every running job, with `all`) go back to the queue, or fail after `maxAttempts`. */
  reclaim(options: { all: boolean; maxAttempts: number }): Promise<ReclaimResult>;
  /** Counts per status and run durations per model. */
  stats(): Promise<JobStats>;
  /** Throws when the store cannot be reached. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** A second job with the same idempotency key for the same owner. */
export class IdempotencyConflict extends Error {
  constructor(
    readonly owner: string,
    readonly key: string,
  ) {
    super(`a job with Idempotency-Key "${key}" exists already`);
    this.name = 'IdempotencyConflict';
  }
}

/** The error a job gets when it was interrupted too many times. */
export function interruptedError(attempts: number): { code: string; message: string } {
  return { code: 'interrupted', message: `the service stopped while the job was running, ${attempts} times; it is not tried again` };
}

/** Durable bytes: job inputs and finished assets. */
export interface BlobStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** A path for a new temporary file on the store's own disk, for `putFile`; one left behind is removed when the store opens. */
  temporaryPath(): string;
  /** Stores the complete file at `path` (from `temporaryPath`) under `name`, taking the file over. */
  putFile(name: string, path: string): Promise<void>;
  /** The bytes, or undefined when there is no such blob. */
  get(name: string): Promise<Uint8Array | undefined>;
  /** The size, or undefined when there is no such blob. */
  size(name: string): Promise<number | undefined>;
  /** A readable stream of the bytes (for downloads). */
  stream(name: string): Promise<NodeJS.ReadableStream>;
  delete(name: string): Promise<void>;
  /** Throws when the store cannot be written. */
  check(): Promise<void>;
}

/** Hands job ids to a consumer, a bounded number at a time (in-process, or pg-boss over Postgres). */
export interface JobQueue {
  /** Delivers `id` to a consumer (the job store calls it; delivering an id twice is harmless, the claim decides). */
  enqueue(id: string): Promise<void>;
  /** Starts delivering ids to `handler`, at most `concurrency` at a time. */
  consume(handler: (id: string) => Promise<void>, concurrency: number): void;
  /** Stops delivering and waits for the handlers that are running. */
  close(): Promise<void>;
}

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Lowercase hex SHA-256 of the key. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
  /** The `whsec_...` secret that signs this key's webhook deliveries; absent on keys made before webhooks until first asked for. */
  webhookSecret?: string;
}

/** API keys. */
export interface KeyStore {
  /** Makes a key; the returned `key` is the only time it is seen. */
  create(name: string): Promise<{ key: string; record: ApiKeyRecord }>;
  /** The live record of `key`, or undefined when it is unknown or revoked. */
  authenticate(key: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes the key with this id (or this unique name) and returns its record. */
  revoke(idOrName: string): Promise<ApiKeyRecord>;
  /** The webhook signing secret of the key with this id, made and stored on first use for a key that has none. */
  webhookSecret(id: string): Promise<string>;
  close(): Promise<void>;
}

/** Where a webhook delivery stands: still to be sent (or sent again), received, or given up. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to push to a job's webhook: the same id and body on every attempt. */
export interface WebhookDelivery {
  /** The `webhook-id`: the receiver's idempotency key. */
  id: string;
  /** The API key whose secret signs it. */
  owner: string;
  jobId: string;
  /** `job.running`, `job.succeeded`, `job.failed` or `job.canceled`. */
  type: string;
  url: string;
  /** The exact JSON body, signed and sent as is. */
  body: string;
  createdAt: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (RFC 3339); null once delivered or given up. */
  nextAttemptAt: string | null;
  /** What the last attempt got: `HTTP 500`, a timeout, a refused address. */
  lastResult: string | null;
  deliveredAt: string | null;
}

/** The outcome of one attempt, as `settle` records it. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastResult: string;
}

/** Durable webhook deliveries, shared by every process of a service; an attempt is made under a short claim so that one process makes it. */
export interface DeliveryStore {
  /** Stores a new pending delivery due now; false when one with its id exists (the same event seen twice). */
  add(delivery: WebhookDelivery): Promise<boolean>;
  /** Claims up to `limit` pending deliveries that are due, for `worker`, for `leaseMs`. */
  take(worker: string, limit: number, leaseMs: number): Promise<WebhookDelivery[]>;
  /** Records the outcome of an attempt `worker` made under its claim, and ends the claim. */
  settle(id: string, worker: string, outcome: DeliveryOutcome): Promise<void>;
  /** Ends claims of `worker` without an attempt (a service stopping), so another process may take them at once. */
  release(worker: string, ids: readonly string[]): Promise<void>;
  /** When the next pending delivery that is not claimed is due (milliseconds since the epoch), or undefined when none is. */
  nextDue(): Promise<number | undefined>;
  /** The deliveries of a job, oldest first. */
  listByJob(jobId: string): Promise<WebhookDelivery[]>;
}

/** The stores and the queue of one service process. */
export interface Backend {
  kind: 'files' | 'postgres';
  jobs: JobStore;
  blobs: BlobStore;
  keys: KeyStore;
  queue: JobQueue;
  deliveries: DeliveryStore;
  /** True when this process alone uses the data (the data folder): every job left `running` at start was interrupted. */
  exclusive: boolean;
  /** Calls `listener` with the id of each job that another process cancels (Postgres only; the data folder has no other process). */
  onCancel(listener: (id: string) => void): void;
  /** Calls `listener` with the id of each job whose status or progress changes, in this process or (Postgres) any other. */
  onChange(listener: (id: string) => void): void;
  /** Closes the stores and the queue and releases the data. */
  close(): Promise<void>;
}
