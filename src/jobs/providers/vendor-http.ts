/**
 * HTTP to a hosted generator: the key on every request to its API, 429 and 5xx retried (waiting what `Retry-After`
 * asks, else backing off), other errors in the vendor's own words, and results streamed to disk within a size limit.
 */
import { tmpdir } from 'node:os';
import { backoffDelay, retryAfterMs, RETRY_BACKOFF, sleep } from '../client/backoff.ts';
import { bodyExcerpt, JobApiError } from '../client/job-api-error.ts';
import { parseHttpBaseUrl } from '../client/http-base-url.ts';
import { Retryable } from '../client/retryable.ts';
import { DEFAULT_MAX_ASSET_BYTES, streamToFile, type JobClientOptions } from '../client/job-client.ts';

/** A retry about to happen, for the progress lines. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string;
  /** What the vendor asked for (`Retry-After`, or its body), before the cap. */
  askedMs?: number;
}

/** Transport settings every adapter takes from the publish: the job client's, with the vendor's own wait in each retry. */
export interface TransportOptions extends Omit<JobClientOptions, 'baseUrl' | 'apiKey' | 'onRetry'> {
  onRetry?: (info: RetryInfo) => void;
}

/** Where and as whom an adapter talks to its vendor. */
export interface HostedOptions extends TransportOptions {
  baseUrl: string;
  key: string;
}

/** How one vendor speaks. */
export interface VendorHttpOptions extends TransportOptions {
  /** `meshy`, `tripo`, ... */
  vendor: string;
  baseUrl: string;
  /** The headers that carry the key. */
  auth: Record<string, string>;
  /** The variable the key came from, for the 401 message. */
  keyVariable: string;
  /** The vendor's error document as words, or undefined when it is not one. */
  errorText: (body: unknown) => string | undefined;
  /** A wait the vendor names in an error body, in milliseconds. */
  waitFromBody?: (body: unknown) => number | undefined;
}

/** An answer the caller reads itself. */
export interface VendorAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** What to send. */
interface VendorRequest {
  json?: unknown;
  form?: () => FormData;
  headers?: Record<string, string>;
  /** Statuses the caller reads itself instead of failing; 2xx always. */
  accept?: (res: Response) => boolean;
}

/** Thrown by a reader: the answer is not what the vendor documents. */
export class NotDocumented extends Error {}



/** The API of one vendor. */
export class VendorHttp {
  readonly baseUrl: string;
  private readonly origin: string;

  constructor(private readonly options: VendorHttpOptions) {
    const { origin, path } = parseHttpBaseUrl(options.baseUrl, `the ${options.vendor} base URL`);
    this.baseUrl = `${origin}${path}`;
    this.origin = origin;
  }

  /** `path` under the base URL; an absolute URL the vendor handed out is used as it is. */
  url(path: string): string {
    return /^https?:\/\//i.test(path) ? path : `${this.baseUrl}${path}`;
  }

  /** One JSON call, retried; `read` returns what the adapter needs from the answer, or throws NotDocumented (retried too). */
  async json<T>(method: string, path: string, request: VendorRequest, read: (answer: VendorAnswer) => T): Promise<T> {
    const target = this.url(path);
    const shown = `${method} ${safePath(target)}`;
    return this.attempt(shown, async (signal) => {
      const headers: Record<string, string> = { accept: 'application/json', ...this.keyFor(target), ...request.headers };
      let body: BodyInit | undefined;
      if (request.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(request.json);
      } else if (request.form) body = request.form();
      const res = await fetch(target, { method, headers, body, signal });
      const text = await res.text();
      let value: unknown;
      let parsed = true;
      try {
        value = text === '' ? null : JSON.parse(text);
      } catch {
        parsed = false;
      }
      if (res.ok || request.accept?.(res)) {
        if (!parsed) throw new Retryable('garbage', `${this.options.vendor}: ${shown} answered ${res.status} with a body that is not JSON: ${bodyExcerpt(text)}`);
        try {
          return read({ status: res.status, body: value, headers: res.headers });
        } catch (error) {
          if (!(error instanceof NotDocumented)) throw error;
          throw new Retryable('garbage', `${this.options.vendor}: ${shown} answered ${res.status} with a body that is not as documented: ${error.message}`);
        }
      }
      throw this.statusError(res, parsed ? value : undefined, text, shown);
    });
  }

  /**
   * Downloads a result to a temporary file and reads it back, stopping as soon as it passes the size limit. The key
   * goes only to the vendor's API origin, never to the storage host a signed URL points at; `what` names the result
   * in messages, which never show the URL.
   */
  async download(url: string, what: string): Promise<{ bytes: Uint8Array; sha256: string }> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new JobApiError('garbage', `${what}: the ${this.options.vendor} answer names a result that is not a URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new JobApiError('garbage', `${what}: the ${this.options.vendor} answer names a ${target.protocol.replace(':', '')} URL; a result is downloaded over http or https only`);
    }
    const max = this.options.maxAssetBytes ?? DEFAULT_MAX_ASSET_BYTES;
    const tooLarge = (how: string): JobApiError => new JobApiError('integrity', `${what} ${how} (--max-asset-mb raises the limit)`);
    return this.attempt(what, async (signal) => {
      const res = await fetch(target, { headers: this.keyFor(target.href), signal });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        throw this.statusError(res, value, text, `downloading ${what}`);
      }
      const declared = res.headers.get('content-length');
      const length = declared === null ? undefined : Number(declared);
      if (length !== undefined && length > max) {
        await res.body?.cancel().catch(() => {});
        throw tooLarge(`has ${length} bytes (Content-Length), over the limit of ${max} bytes`);
      }
      const file = await streamToFile(res, max, this.options.tempDir ?? tmpdir(), () => tooLarge(`passed the limit of ${max} bytes while downloading and was stopped there`));
      try {
        if (length !== undefined && Number.isSafeInteger(length) && file.byteLength !== length) {
          throw new Retryable('garbage', `${what} ended after ${file.byteLength} of ${length} bytes (Content-Length)`);
        }
        return { bytes: await file.bytes(), sha256: file.sha256 };
      } finally {
        await file.discard();
      }
    });
  }

  /** The key's headers for a request to `url`: only the vendor's own API origin gets them. */
  private keyFor(url: string): Record<string, string> {
    return new URL(url).origin === this.origin ? this.options.auth : {};
  }

  /** The error for a response with an error status: retryable for 429 and 5xx, final otherwise. */
  private statusError(res: Response, value: unknown, text: string, action: string): Error {
    const { vendor, keyVariable } = this.options;
    const detail = (value !== undefined ? this.options.errorText(value) : undefined) ?? bodyExcerpt(text);
    if (res.status === 429 || res.status >= 500) {
      const asked = retryAfterMs(res.headers.get('retry-after')) ?? (value !== undefined ? this.options.waitFromBody?.(value) : undefined);
      return new Retryable('http', `${vendor}: ${action} answered ${res.status} (${detail})`, asked, res.status);
    }
    if (res.status === 401 || res.status === 403) {
      return new JobApiError('http', `${vendor} refused the key in ${keyVariable} (${res.status}: ${detail}); check that ${keyVariable} holds a valid ${vendor} API key`, res.status);
    }
    return new JobApiError('http', `${vendor}: ${action} answered ${res.status} (${detail})`, res.status);
  }

  /** Runs `call` until it succeeds, fails for good, or the retries run out. */
  private async attempt<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const retries = this.options.retries ?? 4;
    const backoff = this.options.backoff ?? RETRY_BACKOFF;
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    const outer = this.options.signal;
    const aborted = (): JobApiError => new JobApiError('aborted', `interrupted while waiting for ${this.options.vendor}: ${what}`);
    for (let attempt = 0; ; attempt++) {
      if (outer?.aborted) throw aborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
      let failure: Retryable;
      try {
        return await call(signal);
      } catch (error) {
        if (outer?.aborted) throw aborted();
        if (error instanceof JobApiError) throw error;
        if (error instanceof Retryable) failure = error;
        else if (timeout.aborted) failure = new Retryable('network', `${this.options.vendor}: no answer to ${what} within ${timeoutMs} ms`);
        else failure = new Retryable('network', `cannot reach ${this.options.vendor} at ${this.origin} (${networkReason(error)})`);
      }
      if (attempt >= retries) {
        throw new JobApiError(failure.kind, `${failure.message}; gave up after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}`, failure.status);
      }
      // The vendor's own wait is honoured up to the cap; without one, the delay grows with each attempt.
      const delayMs = failure.waitMs !== undefined ? Math.min(failure.waitMs, this.options.maxRetryAfterMs ?? 60_000) : backoffDelay(attempt, backoff);
      this.options.onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.message, ...(failure.waitMs !== undefined ? { askedMs: failure.waitMs } : {}) });
      try {
        await sleep(delayMs, outer);
      } catch {
        throw aborted();
      }
    }
  }
}

/** The path of a URL without its query, which may carry a signature. */
function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(a URL)';
  }
}

/** The most useful words of a fetch failure (undici hides the cause). */
function networkReason(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
