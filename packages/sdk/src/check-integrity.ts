/** Reads a response body chunk by chunk, hashing as it goes, and stops once more bytes than declared have arrived. */
import { compareIntegrity } from '@aso-registry/core/format/integrity';
import { isSri } from '@aso-registry/core/format/sri';
import type { IntegrityResult, Representation } from '@aso-registry/core/format/types';
import { NetworkError } from './errors.ts';
import { createSha256 } from './create-sha256.ts';

/** What `checkIntegrity` needs of a representation (a manifest entry or an API representation). */
export type IntegrityTarget = Pick<Representation, 'url' | 'byteLength' | 'hash'>;

/** The outcome of `checkIntegrity`: declared against actual byte length and hash. */
export interface IntegrityCheck extends IntegrityResult {
  /** The URL the bytes were read from (on the client's origin when the declared URL was on the registry's). */
  url: string;
  /**
   * False when reading stopped because more bytes than declared arrived; `byteLength.actual` and
   * `hash.actual` then describe the bytes read up to that point, which are already too many.
   */
  complete: boolean;
}

/** Throws a `TypeError` naming the field when `target` cannot be checked. */
export function assertIntegrityTarget(target: IntegrityTarget): void {
  if (typeof target !== 'object' || target === null) throw new TypeError('checkIntegrity: representation must be an object with url, byteLength and hash');
  if (typeof target.url !== 'string' || target.url === '') throw new TypeError(`checkIntegrity: representation.url must be a URL, got ${JSON.stringify(target.url)}`);
  if (!Number.isInteger(target.byteLength) || target.byteLength < 0) {
    throw new TypeError(`checkIntegrity: representation.byteLength must be a non-negative integer, got ${JSON.stringify(target.byteLength)}`);
  }
  if (typeof target.hash !== 'string' || !isSri(target.hash)) {
    throw new TypeError(`checkIntegrity: representation.hash must be sha256-<base64 of 32 bytes>, got ${JSON.stringify(target.hash)}`);
  }
}

/** Hashes the body of `response` (fetched from `url`) and compares it with what `target` declares. */
export async function checkResponse(response: Response, url: string, target: IntegrityTarget, signal?: AbortSignal): Promise<IntegrityCheck> {
  const sha256 = createSha256();
  let count = 0;
  let complete = true;
  try {
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          sha256.update(value);
          count += value.byteLength;
          if (count > target.byteLength) {
            complete = false;
            await reader.cancel();
            break;
          }
        }
      } finally {
        reader.releaseLock();
      }
    } else {
      const bytes = new Uint8Array(await response.arrayBuffer());
      sha256.update(bytes);
      count = bytes.byteLength;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new NetworkError(url, response.status, `reading ${url} failed after ${count} bytes: ${why}`, { cause: error });
  }
  const actual = { byteLength: count, hash: await sha256.digest() };
  return { ...compareIntegrity(target, actual), url, complete };
}
