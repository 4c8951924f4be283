/**
 * One image-to-3D backend behind the steps every publish takes: describe the model, create a task, follow it to the
 * end, fetch its result, and cancel it where the backend can. Each backend is one adapter file in this folder.
 */
import type { BackoffOptions } from '../client/backoff.ts';

/** The backends `npm run submit -- --provider` knows: this project's job API and four hosted generators. */
export const PROVIDER_NAMES = ['aso', 'meshy', 'tripo', 'fal', 'replicate'] as const;

/** A backend's name as `--provider` spells it. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** A value of `--option key=value`: JSON scalars and arrays or objects as written, anything else as a string. */
export type OptionValue = string | number | boolean | null | OptionValue[] | { [key: string]: OptionValue };

/** A task's status in the words of this project's job API; `vendorStatus` keeps the backend's own. */
export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

/** What a backend says about one task. */
export interface ProviderTask {
  /** The backend's task id (recorded as `provenance.pipeline.runId`). */
  id: string;
  status: TaskStatus;
  /** 0-100; a backend that reports none says 0 until the task ends. */
  progress: number;
  /** The status as the backend spells it. */
  vendorStatus: string;
  /** The backend's own message, once failed or canceled. */
  error?: string;
  /** The model version, when the backend reports one. */
  modelVersion?: string;
  /** The backend's document, read only by the adapter that made it (it may hold expiring URLs). */
  raw?: unknown;
}

/** The model a publish runs, as the manifest records it. */
export interface ProviderModel {
  id: string;
  /** A name for people (the catalog's, or the model id). */
  name: string;
  /** The version, when known before the task runs. */
  version?: string;
  /** `provenance.generator.provider`. */
  provider: string;
  output: { type: string; format: string; mediaType: string };
  /** `provenance.generator.parameters`: the catalog's parameters, or the options sent. */
  parameters: Record<string, unknown>;
}

/** The input image: its bytes (what a hosted backend receives) and, when it was given as one, its URL. */
export interface ProviderImage {
  bytes: Uint8Array;
  filename: string;
  /** As sharp names it: `jpeg`, `png`, `webp`, ... */
  format: string;
  url?: string;
}

/** A new task. */
interface CreateTask {
  model: ProviderModel;
  image: ProviderImage;
  options: Record<string, OptionValue>;
  /** The same key on every attempt, for a backend that deduplicates creates. */
  idempotencyKey: string;
}

/** A downloaded result, bounded in size while it streamed. */
interface ProviderAsset {
  bytes: Uint8Array;
  /** Lowercase hex SHA-256. */
  sha256: string;
  /** The format the backend declared (`glb` for the hosted generators), when it declares one. */
  format?: string;
}

/** How to follow a task. */
export interface FollowOptions {
  /** The longest wait, in milliseconds. */
  timeoutMs?: number;
  /** Between polls. */
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** Told about every poll. */
  onUpdate?: (task: ProviderTask) => void;
}

/** One backend. Failures are JobApiErrors; a failed or canceled task is kind `http` with no status, as for the job API. */
export interface Provider {
  readonly name: ProviderName;
  /** For messages: `meshy (https://api.meshy.ai)`. */
  readonly label: string;
  /** The API origin (and path prefix) requests go to. */
  readonly baseUrl: string;
  /** How messages name a task: `job <id>`, `meshy task <id>`. */
  taskName(id: string): string;
  /** The model `--model` names, or a ProviderSetupError. */
  model(id: string, options: Record<string, OptionValue>): Promise<ProviderModel>;
  create(request: CreateTask): Promise<ProviderTask>;
  get(id: string): Promise<ProviderTask>;
  /** Follows `first` until it succeeds (returned), fails or is canceled (thrown), or the time runs out. */
  follow(first: ProviderTask, options: FollowOptions): Promise<ProviderTask>;
  /** Downloads the asset of a succeeded task. */
  result(task: ProviderTask): Promise<ProviderAsset>;
  /** Cancels a task; absent where the backend offers no way to. Runs with its own time limit, not the publish's signal. */
  cancel?(id: string): Promise<void>;
  close(): Promise<void>;
}

/** A mistake in what a provider was asked to do (a missing key, an unknown model, a reserved option): nothing was sent. */
export class ProviderSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderSetupError';
  }
}

/** A succeeded task whose result is not a GLB the publish can take: following it again will not help. */
export class ResultRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultRejected';
  }
}
