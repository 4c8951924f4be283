/** Checks a job's `webhook_url` when the job is made, by the address rules of `image_url`: http(s), no credentials, an allowed host. */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusal, type AddressPolicy } from '../service/address-policy.ts';
import { ApiError } from '../service/api-error.ts';

/** The URL when `raw` is an absolute http(s) URL without credentials; otherwise a 400 naming the field. */
function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(400, 'invalid_webhook_url', `webhook_url "${raw.slice(0, 200)}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiError(400, 'invalid_webhook_url', `webhook_url must use http or https, not ${url.protocol.replace(':', '')}`);
  if (url.username || url.password) throw new ApiError(400, 'invalid_webhook_url', 'webhook_url must not carry a user name or password');
  return url;
}

/** The normalised URL once its host resolves only to addresses `policy` allows; a 422 naming the field and the address otherwise. */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<string> {
  const url = parseWebhookUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch (err) {
      throw new ApiError(422, 'webhook_url_unresolvable', `webhook_url host ${url.hostname} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  for (const address of addresses) {
    const why = refusal(address, policy);
    if (why) throw new ApiError(422, 'webhook_url_refused', `webhook_url host ${url.hostname} is refused: ${why}`);
  }
  return url.href;
}
