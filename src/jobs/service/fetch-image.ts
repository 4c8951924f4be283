/** Fetches a job's `image_url` safely: http(s) only, every resolved address checked, a timeout, a size cap, few redirects. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusal, type AddressPolicy } from './address-policy.ts';

/** Why an image could not be fetched; `code` goes into the API error or the failed job. */
export class FetchError extends Error {
  constructor(
    readonly code: 'invalid_image_url' | 'image_url_refused' | 'image_url_unresolvable' | 'image_fetch_failed' | 'image_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** Limits of one fetch. */
export interface FetchOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
}

/** The parsed URL when `raw` is an absolute http(s) URL without credentials. */
function parseImageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_image_url', `image_url "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('invalid_image_url', `image_url must use http or https, not ${url.protocol.replace(':', '')}`);
  if (url.username || url.password) throw new FetchError('invalid_image_url', 'image_url must not carry a user name or password');
  return url;
}

/** Resolves the URL's host and throws unless every address is allowed by `policy`. */
export async function checkImageUrl(raw: string, policy: AddressPolicy): Promise<URL> {
  const url = parseImageUrl(raw);
  const addresses = await resolveHost(url.hostname);
  for (const address of addresses) {
    const why = refusal(address, policy);
    if (why) throw new FetchError('image_url_refused', `image_url host ${url.hostname} is refused: ${why}`);
  }
  return url;
}

/** The bytes at `raw`, following at most `maxRedirects` redirects, each checked again. */
export async function fetchImage(raw: string, options: FetchOptions): Promise<{ bytes: Uint8Array; contentType: string | undefined }> {
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  let url = parseImageUrl(raw);
  for (let hop = 0; ; hop++) {
    const response = await get(url, options.policy, signal, options.timeoutMs);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= options.maxRedirects) throw new FetchError('image_fetch_failed', `image_url redirected more than ${options.maxRedirects} times`);
      url = parseImageUrl(new URL(response.headers.location, url).href);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchError('image_fetch_failed', `image_url answered HTTP ${status}`);
    }
    const bytes = await readCapped(response, options.maxBytes, signal, options.timeoutMs);
    return { bytes, contentType: response.headers['content-type'] };
  }
}

async function resolveHost(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return [host];
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err || addresses.length === 0) reject(new FetchError('image_url_unresolvable', `image_url host ${hostname} does not resolve${err ? ` (${err.code ?? err.message})` : ''}`));
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/** A DNS lookup for the HTTP client that refuses any answer the policy forbids, so a name cannot change its address between check and connect. */
export function guardedLookup(policy: AddressPolicy, refused: (hostname: string, why: string) => Error = imageUrlRefused): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const why = refusal(a.address, policy);
        if (why) return callback(refused(hostname, why) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

function imageUrlRefused(hostname: string, why: string): Error {
  return new FetchError('image_url_refused', `image_url host ${hostname} is refused: ${why}`);
}

function get(url: URL, policy: AddressPolicy, signal: AbortSignal, timeoutMs: number): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const why = refusal(host, policy);
    if (why) return Promise.reject(new FetchError('image_url_refused', `image_url host ${url.hostname} is refused: ${why}`));
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', lookup: guardedLookup(policy), signal, headers: { accept: 'image/*', 'user-agent': 'aso-reference-jobs' } }, resolve);
    req.on('error', (err) => reject(asFetchError(err, signal, timeoutMs)));
    req.end();
  });
}

function readCapped(response: IncomingMessage, maxBytes: number, signal: AbortSignal, timeoutMs: number): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    return Promise.reject(new FetchError('image_too_large', `the image at image_url has ${declared} bytes; the limit is ${maxBytes}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      reject(err);
      response.destroy();
    };
    response.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) fail(new FetchError('image_too_large', `the image at image_url is larger than the limit of ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    response.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    response.on('error', (err) => fail(asFetchError(err, signal, timeoutMs)));
    response.on('aborted', () => fail(asFetchError(new Error('the connection was aborted'), signal, timeoutMs)));
  });
}

function asFetchError(err: Error, signal: AbortSignal, timeoutMs: number): Error {
  if (err instanceof FetchError) return err;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.name === 'TimeoutError') return new FetchError('image_fetch_failed', `image_url did not answer within ${timeoutMs} ms`);
    return reason instanceof Error ? reason : new Error(String(reason));
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof FetchError) return cause;
  return new FetchError('image_fetch_failed', `image_url could not be fetched: ${err.message}`);
}
