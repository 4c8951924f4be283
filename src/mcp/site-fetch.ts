/** Reads documents of the site the SDK has no call for (worlds, llms.txt, a manifest's bytes), failing with the SDK's error types. */
import { InvalidResponseError, NetworkError, NotFoundError } from '@aso-registry/sdk';

/** GETs `url` and returns its body; a 404 or 410 throws {@link NotFoundError}, any other failure {@link NetworkError}. */
export async function fetchSiteBytes(url: string, accept = '*/*'): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept } });
  } catch (error) {
    throw new NetworkError(url, null, `request to ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    throw new NotFoundError(url, `not found: ${url} (HTTP ${response.status})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new NetworkError(url, response.status, `request to ${url} failed: HTTP ${response.status}`);
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new NetworkError(url, response.status, `reading ${url} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The body of `url` as UTF-8 text, exactly (a byte order mark is kept, bytes that are not UTF-8 are refused). */
export async function fetchSiteText(url: string, accept = 'text/plain'): Promise<string> {
  const bytes = await fetchSiteBytes(url, accept);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new InvalidResponseError(url, '', 'is not UTF-8 text', { cause: error });
  }
}

/** GETs `url` and parses its body as JSON; a body that is not JSON throws {@link InvalidResponseError}. */
export async function fetchSiteJson(url: string): Promise<unknown> {
  const text = await fetchSiteText(url, 'application/json');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidResponseError(url, '', `is not JSON (starts with ${JSON.stringify(text.trimStart().slice(0, 40))})`, { cause: error });
  }
}
