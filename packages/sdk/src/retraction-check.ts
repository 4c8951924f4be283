/**
 * Retractions from verified data only. With a pinned log key, the signed checkpoint's `retractions` line commits to the
 * exact bytes of `/retractions.jsonl`; a version's retraction (reason, date) is read from that file, and an API
 * document that hides one or invents one is an {@link IntegrityError}. Without a pinned key nothing here runs.
 */
import type { ApiVersion, ApiVersionSummary } from '@aso-registry/core/documents/api-types';
import { apiPaths, encodePath } from '@aso-registry/core/format/paths';
import { CHECKPOINT_PATH, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import { RETRACTIONS_FILE, type Retracted, type RetractionEntry } from '@aso-registry/core/log/retractions';
import {
  extendsCommitment,
  findRetractionsCommitment,
  formatRetractionsLine,
  readCommittedRetractions,
  type RetractionsCommitment,
} from '@aso-registry/core/log/retractions-commitment';
import { IntegrityError, LogError, NetworkError } from './errors.ts';
import { fetchCheckpoint, readCheckpoint, type LogContext, type LogVerification } from './log-check.ts';
import { get } from './request.ts';

/** The retractions a signed checkpoint commits to, by `<id>@<version>`. */
export type VerifiedRetractions = ReadonlyMap<string, RetractionEntry>;

/** What `getObject` takes from the check. */
interface CheckedRetraction {
  /** The version's retraction as the verified file says, or null. */
  retracted: Retracted | null;
}

/** The client's retraction check: its cache of the verified file and the most retractions it has seen committed. */
interface RetractionCheck {
  /**
   * The retraction of `doc` from the file the checkpoint commits to: the one `verified` was proven against, else the
   * origin's (read now, its signature checked against the pinned keys). `listed` is the object's version list the
   * version was resolved from (for `latest` or a range). Throws {@link IntegrityError} when either document disagrees.
   */
  version(doc: ApiVersion, listed: readonly ApiVersionSummary[] | null, verified: LogVerification | null, ctx: LogContext): Promise<CheckedRetraction>;
  /** Checks an object's version list against the file today's checkpoint commits to; throws {@link IntegrityError} when it disagrees. */
  list(id: string, listed: readonly ApiVersionSummary[], ctx: LogContext): Promise<void>;
  /** The retractions `checkpoint` (verified by the caller) commits to, read from beside it and checked against it. */
  file(checkpoint: Checkpoint, ctx: LogContext): Promise<VerifiedRetractions>;
}

const EMPTY: VerifiedRetractions = new Map();

/** A check for one client; `known` is a checkpoint seen before (the client's `checkpoint` option), whose retractions must still be there. */
export function createRetractionCheck(known: Checkpoint | null): RetractionCheck {
  let floor: RetractionsCommitment | null = known ? safeCommitment(known) : null;
  let cached: { line: string; file: Promise<VerifiedRetractions> } | null = null;

  /** The verified file of `checkpoint`, read once per commitment (a failed read is tried again next time). */
  function verifiedFile(checkpoint: Checkpoint, ctx: LogContext): Promise<VerifiedRetractions> {
    const checkpointUrl = `${ctx.origin}/${CHECKPOINT_PATH}`;
    let committed: RetractionsCommitment | null;
    try {
      committed = findRetractionsCommitment(checkpoint.extensions);
    } catch (error) {
      return Promise.reject(new LogError(checkpointUrl, `the checkpoint's retractions line cannot be read: ${(error as Error).message}`));
    }
    if (!committed) {
      return Promise.reject(
        new LogError(checkpointUrl, 'the signed checkpoint commits to no retractions (it has no "retractions <count> sha256-<hash>" line): the registry must be built again to sign them'),
      );
    }
    if (floor && committed.count < floor.count) {
      return Promise.reject(
        new LogError(checkpointUrl, `the checkpoint commits to ${committed.count} retractions, fewer than the ${floor.count} of a checkpoint seen before: retractions were rolled back`),
      );
    }
    const line = formatRetractionsLine(committed);
    if (cached?.line === line) return cached.file;
    const file = readFile(committed, ctx);
    const entry = { line, file };
    cached = entry;
    file.catch(() => {
      if (cached === entry) cached = null;
    });
    return file;
  }

  async function readFile(committed: RetractionsCommitment, ctx: LogContext): Promise<VerifiedRetractions> {
    const url = `${ctx.origin}/${RETRACTIONS_FILE}`;
    const bytes = committed.count === 0 ? new Uint8Array() : await fetchBytes(url, ctx);
    const read = readCommittedRetractions(bytes, committed);
    if ('actual' in read) {
      throw new IntegrityError(url, 'the retractions file', { hash: committed.hash }, { hash: read.actual.hash, byteLength: bytes.byteLength });
    }
    if (floor && !extendsCommitment(bytes, floor)) {
      throw new LogError(url, `its first ${floor.count} lines are not the retractions of a checkpoint seen before: retractions were rewritten`);
    }
    floor = committed;
    if ('problem' in read) throw new LogError(url, `the retractions file the checkpoint commits to ${read.problem}`);
    const { entries } = read;
    if (entries.length === 0) return EMPTY;
    return new Map(entries.map((e) => [`${e.id}@${e.version}`, e]));
  }

  async function version(doc: ApiVersion, listed: readonly ApiVersionSummary[] | null, verified: LogVerification | null, ctx: LogContext): Promise<CheckedRetraction> {
    // The checkpoint the log check verified, else the origin's; either way signed by a pinned key.
    const checkpointUrl = `${ctx.origin}/${CHECKPOINT_PATH}`;
    const { checkpoint } = verified ? await readCheckpoint(verified.checkpoint.note, checkpointUrl, ctx.logKeys) : await fetchCheckpoint(ctx, checkpointUrl);
    const file = await verifiedFile(checkpoint, ctx);
    const key = `${doc.id}@${doc.version}`;
    const entry = file.get(key) ?? null;
    const fileUrl = `${ctx.origin}/${RETRACTIONS_FILE}`;
    if (entry && entry.recordHash !== doc.publication.recordHash) {
      throw new IntegrityError(fileUrl, `the record hash of the retraction of ${key} in`, { hash: doc.publication.recordHash }, { hash: entry.recordHash });
    }
    const retracted = entry && { reason: entry.reason, retractedAt: entry.retractedAt };
    checkAgreement(`${ctx.origin}/${encodePath(apiPaths.version(doc.id, doc.version))}`, key, retracted, doc.retracted ?? null);
    checkList(file, doc.id, listed ?? [], ctx);
    return { retracted };
  }

  async function list(id: string, listed: readonly ApiVersionSummary[], ctx: LogContext): Promise<void> {
    const { checkpoint } = await fetchCheckpoint(ctx, `${ctx.origin}/${CHECKPOINT_PATH}`);
    checkList(await verifiedFile(checkpoint, ctx), id, listed, ctx);
  }

  return { version, list, file: verifiedFile };
}

/**
 * The retractions a checkpoint the caller verified commits to: `/retractions.jsonl` read from `ctx.origin`, its bytes
 * checked against the checkpoint's `retractions` line. Throws {@link LogError} when the checkpoint commits to none or
 * the file is not valid, {@link IntegrityError} when the file is not the one committed to.
 */
export function committedRetractions(checkpoint: Checkpoint, ctx: LogContext): Promise<VerifiedRetractions> {
  return createRetractionCheck(null).file(checkpoint, ctx);
}

function checkList(file: VerifiedRetractions, id: string, listed: readonly ApiVersionSummary[], ctx: LogContext): void {
  for (const v of listed) {
    const own = file.get(`${id}@${v.version}`);
    checkAgreement(`${ctx.origin}/${encodePath(apiPaths.object(id))}`, `${id}@${v.version}`, own ? { reason: own.reason, retractedAt: own.retractedAt } : null, v.retracted ?? null);
  }
}

/** Throws when what a document says of a version's retraction is not what the verified file says. */
function checkAgreement(url: string, key: string, verified: Retracted | null, claimed: Retracted | null): void {
  if (verified?.reason === claimed?.reason && verified?.retractedAt === claimed?.retractedAt) return;
  throw new IntegrityError(url, `the retraction of ${key} in`, { hash: `${describe(verified)}, as the retractions the signed checkpoint commits to say` }, { hash: describe(claimed) });
}

function describe(r: Retracted | null): string {
  return r ? `retracted at ${r.retractedAt} (${JSON.stringify(r.reason)})` : 'not retracted';
}

/** The commitment of a checkpoint seen before, or null when it has none or an unreadable one (nothing to hold it to). */
function safeCommitment(checkpoint: Checkpoint): RetractionsCommitment | null {
  try {
    return findRetractionsCommitment(checkpoint.extensions);
  } catch {
    return null;
  }
}

async function fetchBytes(url: string, ctx: LogContext): Promise<Uint8Array> {
  const response = await get(ctx.fetch, url, ctx.signal);
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    throw new NetworkError(url, response.status, `reading ${url} failed: ${(error as Error).message}`, { cause: error });
  }
}
