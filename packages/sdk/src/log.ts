/**
 * `@aso-registry/sdk/log`: the client's log checks one by one, for a version's claim held elsewhere (a record page's,
 * say): read a checkpoint and check its signature, prove an entry in its tree, verify the publisher's signature, read
 * the retractions it commits to. `createClient` runs the same checks on what the registry's API says.
 */
import { toOrigin } from '@aso-registry/core/format/paths';
import type { FetchLike } from './request.ts';
import { pinnedKeys, type LogContext } from './log-check.ts';

export { fetchCheckpoint, inclusionProblem, readCheckpoint, verifyPublisherSignature } from './log-check.ts';
export type { CheckpointInfo, LogClaim, LogContext } from './log-check.ts';
export { committedRetractions } from './retraction-check.ts';
export type { VerifiedRetractions } from './retraction-check.ts';

/** Where and how the checks read the log. */
export interface LogContextOptions {
  /** The origin the checkpoint, tiles, retractions and publisher keys are read from. */
  origin: string;
  /** The registry's canonical URL: a checkpoint URL on it is read from `origin` instead. Default: `origin`. */
  registryUrl?: string;
  /** The registry's log key (or several): a checkpoint must be signed by one. None: signatures are reported, not required. */
  logKey?: string | readonly string[];
  /** Publishers' keys by name (the text of their `.pub` files); other publishers' keys are read from the registry. */
  publisherKeys?: Readonly<Record<string, string | readonly string[]>>;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

/** The context the checks of this entry take. Throws a `TypeError` naming a key that is not a verifier key. */
export function createLogContext(options: LogContextOptions): LogContext {
  const origin = new URL(options.origin).origin;
  const registryUrl = options.registryUrl ?? origin;
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    fetch: fetchFn,
    origin,
    resolveUrl: (url) => Promise.resolve(toOrigin(url, registryUrl, origin)),
    logKeys: pinnedKeys(options.logKey, 'createLogContext: logKey'),
    publisherKeys: new Map(Object.entries(options.publisherKeys ?? {}).map(([name, keys]) => [name, pinnedKeys(keys, `createLogContext: publisherKeys.${name}`)])),
    signal: options.signal,
  };
}
