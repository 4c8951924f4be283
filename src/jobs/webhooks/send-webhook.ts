/** One attempt at a webhook delivery: a POST signed as Standard Webhooks asks, the address rules checked again at connect time, no redirect followed. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { retryAfterMs } from '../client/backoff.ts';
import { refusal, type AddressPolicy } from '../service/address-policy.ts';
import { guardedLookup } from '../service/fetch-image.ts';
import type { WebhookDelivery } from '../store/types.ts';

/** What one attempt got. */
export interface AttemptResult {
  /** A 2xx answer. */
  delivered: boolean;
  /** 410 Gone: the receiver wants no more deliveries of this event. */
  gone: boolean;
  /** How long the receiver asked to wait (`Retry-After`). */
  retryAfterMs?: number;
  /** `HTTP 204`, `no answer within 15000 ms`, `refused: ...`: for the record and the log. */
  result: string;
}

/** What an attempt is sent with. */
export interface SendOptions {
  policy: AddressPolicy;
  timeoutMs: number;
}

const USER_AGENT = 'aso-reference-jobs-webhooks';

/** A refusal at connect time, told apart from network errors. */
class Refused extends Error {}

/** Sends `delivery` to its URL, signed with `secret` (`whsec_...`) and the time of this attempt; never throws. */
export async function sendWebhook(delivery: WebhookDelivery, secret: string, options: SendOptions): Promise<AttemptResult> {
  const failed = (result: string): AttemptResult => ({ delivered: false, gone: false, result });
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return failed(`webhook_url "${delivery.url}" is not a URL`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const why = isIP(host) ? refusal(host, options.policy) : undefined;
  if (why) return failed(`refused: ${why}`);
  // The signature covers whole seconds, as the header carries them.
  const seconds = Math.floor(Date.now() / 1000);
  const signature = new Webhook(secret).sign(delivery.id, new Date(seconds * 1000), delivery.body);
  const body = Buffer.from(delivery.body, 'utf8');
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': USER_AGENT,
    'webhook-id': delivery.id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signature,
  };
  const signal = AbortSignal.timeout(options.timeoutMs);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const lookup = guardedLookup(options.policy, (hostname, reason) => new Refused(`refused: host ${hostname}: ${reason}`));
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers, lookup, signal, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not needed: drained in the background, cut by the same time limit.
      res.on('error', () => {});
      res.resume();
      const wait = retryAfterMs(typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null);
      resolve({ delivered: status >= 200 && status < 300, gone: status === 410, ...(wait === undefined ? {} : { retryAfterMs: wait }), result: `HTTP ${status}` });
    });
    req.on('error', (err) => {
      if (signal.aborted) return resolve(failed(`no answer within ${options.timeoutMs} ms`));
      const cause = err instanceof Refused ? err : (err as { cause?: unknown }).cause;
      if (cause instanceof Refused) return resolve(failed(cause.message));
      resolve(failed(`could not be sent: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    });
    req.end(body);
  });
}
