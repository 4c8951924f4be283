/** The SDK's HTTP edge: one GET, its failures as typed errors, and JSON bodies parsed with a clear error. */
import { InvalidResponseError, NetworkError, NotFoundError } from './errors.ts';

/** The `fetch` the SDK calls: the platform's, or one the caller hands in. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** GETs `url`; a 404 or 410 throws {@link NotFoundError}, another non-2xx status or no response throws {@link NetworkError}. */
export async function get(fetchFn: FetchLike, url: string, signal?: AbortSignal, accept?: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetchFn(url, { method: 'GET', signal, headers: accept ? { accept } : undefined });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(url, null, `request to ${url} failed: ${reason(error)}`, { cause: error });
  }
  if (response.status === 404 || response.status === 410) {
    await discard(response);
    throw new NotFoundError(url, `not found: ${url} (HTTP ${response.status})`);
  }
  if (!response.ok) {
    await discard(response);
    throw new NetworkError(url, response.status, `request to ${url} failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  return response;
}

/** GETs `url` and parses its body as JSON; a body that is not JSON throws {@link InvalidResponseError}. */
export async function getJson(fetchFn: FetchLike, url: string, signal?: AbortSignal): Promise<unknown> {
  const response = await get(fetchFn, url, signal, 'application/json');
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(url, response.status, `reading ${url} failed: ${reason(error)}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no content type';
    const start = JSON.stringify(text.trimStart().slice(0, 40));
    throw new InvalidResponseError(url, '', `is not JSON (${type}, starts with ${start})`, { cause: error });
  }
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // The body is not needed; a failure to drop it changes nothing.
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
