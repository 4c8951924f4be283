/** The records of the job service and the small interfaces its storage and queue sit behind. */

/** Where a job is in its life. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

/** The statuses a job never leaves. */
export const FINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

/** Where the image of a job comes from. */
export type JobInput =
  | { kind: 'url'; url: string }
  | { kind: 'upload'; filename: string | null; byteLength: number; sha256: string };

/** The finished asset of a job. */
export interface AssetInfo {
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
}

/** Durable job records. */
export interface JobStore {
  /** Stores a new job; fails when the id exists. */
  insert(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Applies `patch` (and a fresh `updatedAt`) and returns the stored record. */
  update(id: string, patch: Partial<Omit<JobRecord, 'id' | 'owner' | 'createdAt'>>): Promise<JobRecord>;
  /** The jobs of `owner`, newest first. */
  listByOwner(owner: string, limit: number): Promise<JobRecord[]>;
  /** Every job in `status`, oldest first. */
  listByStatus(status: JobStatus): Promise<JobRecord[]>;
  findByIdempotencyKey(owner: string, key: string): Promise<JobRecord | undefined>;
  close(): Promise<void>;
}

/** Durable bytes: job inputs and finished assets. */
export interface BlobStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or undefined when there is no such blob. */
  get(name: string): Promise<Uint8Array | undefined>;
  /** The size, or undefined when there is no such blob. */
  size(name: string): Promise<number | undefined>;
  /** A readable stream of the bytes (for downloads). */
  stream(name: string): Promise<NodeJS.ReadableStream>;
  delete(name: string): Promise<void>;
}

/** Hands job ids to a consumer, a bounded number at a time. A Redis-backed queue (BullMQ) can fill the same shape. */
export interface JobQueue {
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
}
