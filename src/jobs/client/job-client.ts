/** A client of the image-to-3D job API (DESIGN §7): retries with backoff, validates every answer, verifies assets. */
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backoffDelay, retryAfterMs, RETRY_BACKOFF, sleep, type BackoffOptions } from './backoff.ts';
import { bodyExcerpt, JobApiError, unauthorizedMessage } from './job-api-error.ts';
import { parseHttpBaseUrl } from './http-base-url.ts';
import { Retryable } from './retryable.ts';
import { readJobEvents, type JobEvent } from './job-events.ts';
import { parseJob, parseModelList, type ApiJob, type ApiModel } from './parse-job.ts';

/** How the client talks to the API. */
export interface JobClientOptions {
  /** The API origin, e.g. `http://127.0.0.1:8787` (paths start with `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Attempts after the first for 5xx, 429, network errors and unreadable answers; default 4. */
  retries?: number;
  backoff?: BackoffOptions;
  /** The longest `Retry-After` honoured, in milliseconds; default 60 s. */
  maxRetryAfterMs?: number;
  /** Time allowed for one request, in milliseconds; default 30 s. */
  requestTimeoutMs?: number;
  /** The largest asset accepted, in bytes; default `DEFAULT_MAX_ASSET_BYTES`. */
  maxAssetBytes?: number;
  /** Where an asset is streamed to while it downloads; default the system's temporary folder. */
  tempDir?: string;
  /** Aborts every request and wait. */
  signal?: AbortSignal;
  /** Told before each retry. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** The largest asset downloaded unless told otherwise: 512 MiB. */
export const DEFAULT_MAX_ASSET_BYTES = 512 * 1024 * 1024;

/** What to send for a new job: an image file (multipart upload) or a URL the API fetches. */
export type CreateJob =
  | { model: string; image: { bytes: Uint8Array; filename: string }; imageUrl?: undefined; idempotencyKey?: string }
  | { model: string; imageUrl: string; image?: undefined; idempotencyKey?: string };

/** A downloaded asset whose length and SHA-256 matched what the API declared. */
export interface VerifiedAsset {
  bytes: Uint8Array;
  /** Lowercase hex SHA-256. */
  sha256: string;
  mediaType: string | null;
}


/** Reads a JSON error body `{ error: { code, message } }`, or undefined. */
function apiError(text: string): { code: string; message: string } | undefined {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string') return { code: body.error.code, message: body.error.message };
  } catch {
    // not JSON
  }
  return undefined;
}


/** The job API client. */
export class JobClient {
  readonly baseUrl: string;
  private readonly options: JobClientOptions;

  constructor(options: JobClientOptions) {
    const { origin, path } = parseHttpBaseUrl(options.baseUrl, 'the job API URL');
    // Paths start with /v1: a base URL given with it (`https://host/v1`) means the same API.
    this.baseUrl = `${origin}${path.replace(/\/v1$/, '')}`;
    this.options = options;
  }

  /** `GET /v1/models`: the catalog. */
  async listModels(): Promise<ApiModel[]> {
    return this.requestJson('GET', '/v1/models', undefined, parseModelList, 'the model list');
  }

  /** `POST /v1/jobs`: submits a job and returns it as the API accepted it (`202`). */
  async createJob(request: CreateJob): Promise<ApiJob> {
    const headers: Record<string, string> = {};
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    const body = (): BodyInit => {
      if (!request.image) {
        headers['content-type'] = 'application/json';
        return JSON.stringify({ model: request.model, image_url: request.imageUrl });
      }
      const form = new FormData();
      form.set('model', request.model);
      form.set('image', new Blob([request.image.bytes as Uint8Array<ArrayBuffer>]), request.image.filename);
      return form;
    };
    return this.requestJson('POST', '/v1/jobs', { body, headers }, parseJob, 'the created job');
  }

  /** `GET /v1/jobs/{id}`. */
  async getJob(id: string): Promise<ApiJob> {
    return this.requestJson('GET', `/v1/jobs/${encodeURIComponent(id)}`, undefined, parseJob, `job ${id}`);
  }

  /**
   * `GET /v1/jobs/{id}/events`: the job's states as the API pushes them, resumed after `lastEventId`; undefined when
   * the API answers anything but an event stream (an older service, an error), for the caller to poll instead.
   */
  async openJobEvents(id: string, options: { lastEventId?: string; signal?: AbortSignal } = {}): Promise<AsyncGenerator<JobEvent> | undefined> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...this.auth() };
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    const res = await fetch(`${this.baseUrl}/v1/jobs/${encodeURIComponent(id)}/events`, { headers, signal: options.signal });
    if (!res.ok || !res.body || !/^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '')) {
      await res.body?.cancel().catch(() => {});
      return undefined;
    }
    return readJobEvents(res.body, id);
  }

  /** The URL of a job on this API. */
  jobUrl(id: string): string {
    return `${this.baseUrl}/v1/jobs/${encodeURIComponent(id)}`;
  }

  /**
   * Downloads a succeeded job's asset and checks its length against `Content-Length` and the job's
   * `asset.byte_length`, and its SHA-256 against `X-Content-SHA256` and the job's `asset.sha256`.
   */
  async downloadAsset(job: ApiJob): Promise<VerifiedAsset> {
    if (job.status !== 'succeeded' || !job.download_url) throw new JobApiError('garbage', `job ${job.id} is ${job.status} and has no download_url`);
    let target: URL;
    try {
      target = new URL(job.download_url, `${this.baseUrl}/`);
    } catch {
      throw new JobApiError('garbage', `job ${job.id}: download_url "${job.download_url}" is not a URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new JobApiError('garbage', `job ${job.id}: download_url "${job.download_url}" uses ${target.protocol.replace(':', '')}; an asset is downloaded over http or https only`);
    }
    // The key goes only to the API's own origin, never to a storage host it redirects to.
    const sameOrigin = target.origin === new URL(this.baseUrl).origin;
    const max = this.options.maxAssetBytes ?? DEFAULT_MAX_ASSET_BYTES;
    return this.attempt(`the asset of job ${job.id}`, async (signal) => {
      const res = await fetch(target, { headers: sameOrigin ? this.auth() : {}, signal });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        throw this.statusError(res, text, `downloading the asset of job ${job.id}`);
      }
      const declared = res.headers.get('content-length');
      const length = declared === null ? undefined : Number(declared);
      if (length !== undefined && (!Number.isSafeInteger(length) || length < 0)) throw new Retryable('garbage', `the asset's Content-Length "${declared}" is not a byte count`);
      const tooLarge = (what: string): JobApiError => new JobApiError('integrity', `the asset of job ${job.id} ${what} (--max-asset-mb raises the limit)`);
      if (length !== undefined && length > max) {
        await res.body?.cancel().catch(() => {});
        throw tooLarge(`has ${length} bytes (Content-Length), over the limit of ${max} bytes`);
      }
      const { byteLength, sha256, bytes, discard } = await streamToFile(res, max, this.options.tempDir ?? tmpdir(), () =>
        tooLarge(`passed the limit of ${max} bytes while downloading and was stopped there`),
      );
      try {
        if (length !== undefined && byteLength !== length) {
          throw new Retryable('garbage', `the asset of job ${job.id} ended after ${byteLength} of ${length} bytes (Content-Length)`);
        }
        const header = res.headers.get('x-content-sha256')?.trim().toLowerCase();
        const expectedHash = header ?? job.asset?.sha256;
        if (!expectedHash) throw new JobApiError('integrity', `the asset of job ${job.id} came without an X-Content-SHA256 header, and the job declares no asset.sha256`);
        if (sha256 !== expectedHash) {
          throw new JobApiError('integrity', `the asset of job ${job.id} does not match its declared SHA-256: expected ${expectedHash}, actual ${sha256}`);
        }
        if (job.asset && job.asset.sha256 !== sha256) {
          throw new JobApiError('integrity', `the asset of job ${job.id} does not match the job's asset.sha256: expected ${job.asset.sha256}, actual ${sha256}`);
        }
        if (job.asset && job.asset.byte_length !== byteLength) {
          throw new JobApiError('integrity', `the asset of job ${job.id} has ${byteLength} bytes; the job declares asset.byte_length ${job.asset.byte_length}`);
        }
        return { bytes: await bytes(), sha256, mediaType: res.headers.get('content-type') };
      } finally {
        await discard();
      }
    });
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  /** One JSON call, retried; `parse` returns the value or a reason the body is not what was expected. */
  private requestJson<T>(
    method: string,
    path: string,
    send: { body: () => BodyInit; headers: Record<string, string> } | undefined,
    parse: (value: unknown) => T | string,
    what: string,
  ): Promise<T> {
    return this.attempt(what, async (signal) => {
      const body = send?.body();
      const res = await fetch(`${this.baseUrl}${path}`, { method, headers: { accept: 'application/json', ...this.auth(), ...send?.headers }, body, signal });
      const text = await res.text();
      if (!res.ok) throw this.statusError(res, text, `${method} ${path}`);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new Retryable('garbage', `${method} ${path} answered ${res.status} with a body that is not JSON: ${bodyExcerpt(text)}`);
      }
      const parsed = parse(value);
      if (typeof parsed === 'string') throw new Retryable('garbage', `${method} ${path} answered with ${what} that is not as documented: ${parsed}`);
      return parsed;
    });
  }

  /** The error for a response with an error status: retryable for 429 and 5xx, final otherwise. */
  private statusError(res: Response, text: string, action: string): Error {
    const err = apiError(text);
    const detail = err ? `${err.code}: ${err.message}` : bodyExcerpt(text);
    if (res.status === 429 || res.status >= 500) {
      return new Retryable('http', `${action} answered ${res.status} (${detail})`, retryAfterMs(res.headers.get('retry-after')), res.status, err?.code);
    }
    if (res.status === 401) return new JobApiError('http', unauthorizedMessage(err?.message ?? bodyExcerpt(text)), 401, err?.code);
    return new JobApiError('http', `${action} answered ${res.status} (${detail})`, res.status, err?.code);
  }

  /** Runs `call` until it succeeds, fails for good, or the retries run out. */
  private async attempt<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const retries = this.options.retries ?? 4;
    const backoff = this.options.backoff ?? RETRY_BACKOFF;
    const outer = this.options.signal;
    for (let attempt = 0; ; attempt++) {
      if (outer?.aborted) throw new JobApiError('aborted', `interrupted while waiting for ${what}`);
      const timeout = AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000);
      const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
      let failure: Retryable;
      try {
        return await call(signal);
      } catch (error) {
        if (outer?.aborted) throw new JobApiError('aborted', `interrupted while waiting for ${what}`);
        if (error instanceof JobApiError) throw error;
        if (error instanceof Retryable) failure = error;
        else if (timeout.aborted) failure = new Retryable('network', `no answer for ${what} within ${this.options.requestTimeoutMs ?? 30_000} ms`);
        else failure = new Retryable('network', `cannot reach the job API at ${this.baseUrl} (${networkReason(error)})`);
      }
      if (attempt >= retries) {
        const tries = `${attempt + 1} attempt${attempt === 0 ? '' : 's'}`;
        throw new JobApiError(failure.kind, `${failure.message}; gave up after ${tries}`, failure.status, failure.code);
      }
      const delayMs = Math.min(this.options.maxRetryAfterMs ?? 60_000, failure.waitMs ?? backoffDelay(attempt, backoff));
      this.options.onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.message });
      try {
        await sleep(delayMs, outer);
      } catch {
        throw new JobApiError('aborted', `interrupted while waiting for ${what}`);
      }
    }
  }
}

/**
 * Streams a response body to a temporary file while hashing it, and stops with `tooLarge()` as soon as it passes
 * `max` bytes, whatever the headers said: memory holds one chunk at a time. `bytes()` reads the verified file back
 * (at most `max` bytes); `discard()` removes it, which a failure here does at once.
 */
export async function streamToFile(
  res: Response,
  max: number,
  tempDir: string,
  tooLarge: () => Error,
): Promise<{ byteLength: number; sha256: string; bytes: () => Promise<Uint8Array>; discard: () => Promise<void> }> {
  const dir = await mkdtemp(join(tempDir, 'aso-asset-'));
  const file = join(dir, 'asset');
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const hash = createHash('sha256');
    let byteLength = 0;
    const handle = await open(file, 'w');
    try {
      if (res.body) {
        // Leaving the loop early (the limit) cancels the stream, which closes the connection.
        for await (const chunk of res.body) {
          byteLength += chunk.byteLength;
          if (byteLength > max) throw tooLarge();
          hash.update(chunk);
          await handle.write(chunk);
        }
      }
    } finally {
      await handle.close();
    }
    return {
      byteLength,
      sha256: hash.digest('hex'),
      bytes: async () => new Uint8Array(await readFile(file)),
      discard: remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The most useful words of a fetch failure (undici hides the cause). */
function networkReason(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
