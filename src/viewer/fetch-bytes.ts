/** Fetches a representation's bytes with progress, and stops as soon as more bytes arrive than were declared. */

/** Options of `fetchBytes`. */
export interface FetchBytesOptions {
  signal?: AbortSignal;
  /** Called after each chunk with the bytes received so far. */
  onProgress?: (received: number) => void;
}

/** The bytes as received (possibly fewer than declared), or why there are none. */
export type FetchBytesResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'fetch' | 'byte-length'; detail: string; received: number };

/** The failure text for a body that ran past its declared length. */
export function overflowText(declared: number, received: number): string {
  return `byte length mismatch: expected ${declared}, got more than ${declared} (download stopped after ${received} bytes)`;
}

/**
 * GETs `url` and reads at most `declared` bytes of its body. A body longer than declared is
 * cancelled at the first chunk past the limit; a shorter one is returned as is, for the length
 * check to refuse. An abort through `signal` rejects with the abort error.
 */
export async function fetchBytes(url: string, declared: number, options: FetchBytesOptions = {}): Promise<FetchBytesResult> {
  const { signal, onProgress } = options;
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ?? null, credentials: 'same-origin' });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, reason: 'fetch', detail: `could not fetch ${url}: ${messageOf(error)}`, received: 0 };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'fetch', detail: `could not fetch ${url}: HTTP ${response.status}`, received: 0 };
  }
  if (!response.body) {
    return { ok: false, reason: 'fetch', detail: `could not fetch ${url}: the response has no body`, received: 0 };
  }
  const buffer = new Uint8Array(declared);
  const reader = response.body.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.byteLength > declared) {
        received += value.byteLength;
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'byte-length', detail: overflowText(declared, received), received };
      }
      buffer.set(value, received);
      received += value.byteLength;
      onProgress?.(received);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, reason: 'fetch', detail: `the download of ${url} broke off after ${received} bytes: ${messageOf(error)}`, received };
  } finally {
    reader.releaseLock();
  }
  return { ok: true, bytes: received === declared ? buffer : buffer.slice(0, received) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
