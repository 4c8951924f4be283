/**
 * The record page's log check, in the browser: the page's claim (the version's log entry and proof, the publisher keys
 * the registry holds) checked by the SDK's log checks: the checkpoint's signature against the log key the page pins, the
 * entry's inclusion in the checkpoint's tree, the publisher's signature, and the retractions the signed checkpoint
 * commits to. Loaded lazily (it carries Ed25519 and SHA-2), after the page is shown.
 */
import { logEntry } from '@aso-registry/core/log/version-log';
import {
  committedRetractions,
  createLogContext,
  fetchCheckpoint,
  inclusionProblem,
  verifyPublisherSignature,
  type CheckpointInfo,
  type LogClaim,
  type LogContext,
} from '@aso-registry/sdk/log';
import type { FetchLike } from '@aso-registry/sdk';
import type { Checkpoint } from '@aso-registry/core/log/checkpoint';
import type { LogViewConfig } from './log-config.ts';

/** One row's outcome: a state for `data-*-state`, and the words shown. */
export interface RowView {
  state: 'verified' | 'unsigned' | 'failed' | 'retracted';
  text: string;
}

/** The outcome of the three rows. */
export interface LogCheckView {
  log: RowView;
  signature: RowView;
  /** Whether the version is retracted, from the retractions the signed checkpoint commits to. */
  retraction: RowView;
}

/** An error's words without the SDK's `log check failed: `. */
const problemOf = (error: unknown): string => (error as { problem?: string }).problem ?? (error as Error).message;
const failed = (error: unknown): RowView => ({ state: 'failed', text: `Failed: ${problemOf(error)}` });

/** The checkpoint and the retractions are read afresh: a cached copy may predate the page. Tiles may come from a cache. */
const fresh = (fetchFn: FetchLike): FetchLike => (url, init) => fetchFn(url, /\/tile\//.test(new URL(url).pathname) ? init : { ...init, cache: 'no-store' });

/** Checks the version of `config` against the log served from `origin`. */
export async function checkLog(config: LogViewConfig, origin: string, fetchFn: FetchLike = (url, init) => fetch(url, init)): Promise<LogCheckView> {
  const entry = logEntry(config.log);
  let ctx: LogContext;
  try {
    const publisherKeys = typeof entry !== 'string' && entry.publisher !== undefined ? { [entry.publisher]: config.publisherKeys } : {};
    ctx = createLogContext({ origin, registryUrl: config.registryUrl, logKey: config.logKey ?? undefined, publisherKeys, fetch: fresh(fetchFn) });
  } catch (error) {
    const row = failed(error);
    return { log: row, signature: row, retraction: row };
  }
  const claim: LogClaim = { ...config.expected, log: config.log };
  const signature = await checkSignature(claim, ctx);
  let read: Awaited<ReturnType<typeof fetchCheckpoint>>;
  try {
    // An unsigned checkpoint proves inclusion, and is reported as unsigned; one signed by another key fails.
    read = await fetchCheckpoint(ctx, await ctx.resolveUrl(config.log.checkpoint), true);
  } catch (error) {
    const row = failed(error);
    return { log: row, signature, retraction: config.logKey ? row : NO_LOG_KEY };
  }
  const [log, retraction] = await Promise.all([checkInclusion(claim, read, ctx), checkRetraction(claim, read, ctx)]);
  return { log, signature, retraction };
}

const NO_LOG_KEY: RowView = { state: 'unsigned', text: 'Not checked: the registry commits no log key' };

async function checkInclusion(claim: LogClaim, read: { checkpoint: Checkpoint; info: CheckpointInfo }, ctx: LogContext): Promise<RowView> {
  let problem: string | null;
  try {
    problem = await inclusionProblem(claim, read.checkpoint, ctx);
  } catch (error) {
    return failed(error);
  }
  if (problem) return failed({ problem });
  const where = `entry ${claim.log.leafIndex + 1} of ${read.info.size}`;
  if (read.info.signature === 'verified') return { state: 'verified', text: `Verified: ${where} in the checkpoint signed by ${read.info.signedBy}` };
  const why = ctx.logKeys.length ? read.info.signature : 'not checked against a log key (the registry commits none)';
  return { state: 'unsigned', text: `Included as ${where}, but the checkpoint is ${why}` };
}

/**
 * Whether the version is retracted, as the retractions file the checkpoint signed by the pinned log key commits to say
 * (never as the page says): a page served from a cache older than a retraction still shows it here.
 */
async function checkRetraction(claim: LogClaim, read: { checkpoint: Checkpoint; info: CheckpointInfo }, ctx: LogContext): Promise<RowView> {
  if (!ctx.logKeys.length) return NO_LOG_KEY;
  if (read.info.signature !== 'verified') return { state: 'unsigned', text: 'Not checked: the checkpoint is unsigned' };
  let file;
  try {
    file = await committedRetractions(read.checkpoint, ctx);
  } catch (error) {
    return failed(error);
  }
  const entry = file.get(`${claim.id}@${claim.version}`);
  if (!entry || entry.recordHash !== claim.recordHash) return { state: 'verified', text: 'Not retracted, as the signed checkpoint commits' };
  return { state: 'retracted', text: `Retracted at ${entry.retractedAt}: ${entry.reason}` };
}

async function checkSignature(claim: LogClaim, ctx: LogContext): Promise<RowView> {
  try {
    const signer = await verifyPublisherSignature(claim, ctx);
    return signer ? { state: 'verified', text: `Signed by ${signer.name}` } : { state: 'unsigned', text: 'Not signed by its publisher' };
  } catch (error) {
    return failed(error);
  }
}
