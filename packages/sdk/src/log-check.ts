/**
 * The SDK's checks against the registry's transparency log: a version's inclusion proof against the signed checkpoint,
 * its publisher's signature, and that a checkpoint seen earlier is a prefix of today's (from the C2SP tiles).
 */
import type { ApiVersion } from '@aso-registry/core/documents/api-types';
import { toBase64 } from '@aso-registry/core/log/base64';
import { CHECKPOINT_PATH, checkpointOriginProblem, openCheckpoint, type Checkpoint, type OpenedCheckpoint } from '@aso-registry/core/log/checkpoint';
import { consistencyProblem } from '@aso-registry/core/log/merkle-proof';
import { parsePublisherKeys, publicationSignatureProblem, publisherKeysPath } from '@aso-registry/core/log/publication-signature';
import { parseVerifierKey, type VerifierKey } from '@aso-registry/core/log/signed-note';
import { consistencyProofFromTiles, type FetchTile } from '@aso-registry/core/log/tlog-tiles';
import { logEntry, versionLogProblems, type VersionLog } from '@aso-registry/core/log/version-log';
import { LogError, NetworkError } from './errors.ts';
import { get, type FetchLike } from './request.ts';

/** `auto` (the default) checks when the version carries a log proof; `require` fails when it does not; `skip` does not check. */
export type LogMode = 'auto' | 'require' | 'skip';

/** A checkpoint as the SDK reports it. */
export interface CheckpointInfo {
  origin: string;
  size: number;
  /** The root hash, base64. */
  rootHash: string;
  /** `verified`: signed by a pinned log key; `unverified`: signed, but by no pinned key (or none was pinned); `unsigned`. */
  signature: 'verified' | 'unverified' | 'unsigned';
  /** `<name>+<key id>` of the pinned key that signed it, when verified. */
  signedBy: string | null;
  /** The checkpoint exactly as served (a signed note, or the bare body): keep it to prove consistency later. */
  note: string;
}

/** What the log proved about one version. */
export interface LogVerification {
  leafIndex: number;
  /** The checkpoint the version was proven against. */
  checkpoint: CheckpointInfo;
  /** The publisher whose signature of the version verified, or null for a version published unsigned. */
  publisher: { name: string; keyId: string } | null;
  /** Set when an earlier checkpoint was known: the sizes proven to be prefix and extension. */
  consistency: { from: number; to: number } | null;
}

/** What the checks need from the client. */
export interface LogContext {
  fetch: FetchLike;
  /** The client's origin: the checkpoint and tiles are read from it. */
  origin: string;
  resolveUrl(url: string): Promise<string>;
  /** The pinned log keys; none means signatures are reported, not required. */
  logKeys: readonly VerifierKey[];
  /** Pinned publisher keys by name; other publishers' keys are read from the registry. */
  publisherKeys: ReadonlyMap<string, readonly VerifierKey[]>;
  signal?: AbortSignal | undefined;
}

async function text(ctx: LogContext, url: string): Promise<string> {
  const response = await get(ctx.fetch, url, ctx.signal);
  try {
    return await response.text();
  } catch (error) {
    throw new NetworkError(url, response.status, `reading ${url} failed: ${(error as Error).message}`, { cause: error });
  }
}

async function bytes(ctx: LogContext, url: string): Promise<Uint8Array> {
  const response = await get(ctx.fetch, url, ctx.signal);
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new NetworkError(url, response.status, `reading ${url} failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Reads a checkpoint note: a signature by a pinned key must verify, when keys are pinned one of them must have signed
 * (or, with `allowUnsigned`, nobody: a checkpoint signed by other keys only is still refused), and the checkpoint's
 * origin must be the name of a pinned key that signed it.
 */
export async function readCheckpoint(note: string, url: string, keys: readonly VerifierKey[], allowUnsigned = false): Promise<{ checkpoint: Checkpoint; info: CheckpointInfo }> {
  let opened: OpenedCheckpoint;
  try {
    opened = await openCheckpoint(note, keys);
  } catch (error) {
    throw new LogError(url, `the checkpoint cannot be trusted: ${(error as Error).message}`);
  }
  const { checkpoint, signature } = opened;
  if (keys.length && signature.state !== 'verified' && !(allowUnsigned && signature.state === 'unsigned')) {
    const pinned = keys.map((k) => `${k.name}+${k.keyId}`).join(', ');
    const by = signature.state === 'unsigned' ? 'it is unsigned' : `it is signed by ${signature.by.map((s) => `${s.name}+${s.keyId}`).join(', ')}`;
    throw new LogError(url, `the checkpoint is not signed by the pinned log key ${pinned}: ${by}`);
  }
  const originProblem = checkpointOriginProblem(opened);
  if (originProblem) throw new LogError(url, originProblem);
  const signedBy = signature.state === 'verified' ? signature.by.map((s) => `${s.name}+${s.keyId}`)[0]! : null;
  return {
    checkpoint,
    info: { origin: checkpoint.origin, size: checkpoint.size, rootHash: toBase64(checkpoint.rootHash), signature: signature.state, signedBy, note },
  };
}

/** Fetches and reads the checkpoint at `url`. */
export async function fetchCheckpoint(ctx: LogContext, url = `${ctx.origin}/${CHECKPOINT_PATH}`, allowUnsigned = false): Promise<{ checkpoint: Checkpoint; info: CheckpointInfo }> {
  return readCheckpoint(await text(ctx, url), url, ctx.logKeys, allowUnsigned);
}

/** Reads a tile from the origin. */
function tileFetcher(ctx: LogContext): FetchTile {
  return (path) => bytes(ctx, `${ctx.origin}/${path}`);
}

/** Null when the tree `older` is a prefix of `newer`, proven with a consistency proof computed from `newer`'s tiles. */
export async function consistencyFromTiles(ctx: LogContext, older: Checkpoint, newer: Checkpoint): Promise<string | null> {
  if (older.size === 0) return null;
  if (older.size >= newer.size) return consistencyProblem(older.size, newer.size, older.rootHash, newer.rootHash, []);
  let proof: Uint8Array[];
  try {
    proof = await consistencyProofFromTiles(older.size, newer.size, tileFetcher(ctx));
  } catch (error) {
    if (error instanceof NetworkError) throw error;
    return `the tiles of the tree of ${newer.size} entries are not usable: ${(error as Error).message}`;
  }
  return consistencyProblem(older.size, newer.size, older.rootHash, newer.rootHash, proof);
}

/** The publisher keys of `name`: pinned ones, else `/publishers/<name>.pub` of the registry. */
async function publisherKeys(ctx: LogContext, name: string): Promise<readonly VerifierKey[]> {
  const pinned = ctx.publisherKeys.get(name);
  if (pinned) return pinned;
  const url = `${ctx.origin}/${publisherKeysPath(name)}`;
  try {
    return parsePublisherKeys(await text(ctx, url), name);
  } catch (error) {
    if (error instanceof NetworkError || (error as { code?: string }).code === 'not_found') throw error;
    throw new LogError(url, `the keys of publisher ${name} cannot be read: ${(error as Error).message}`);
  }
}

/** What a version says of its place in the log: its API document's, or a record page's. */
export interface LogClaim {
  id: string;
  version: string;
  recordHash: string;
  publicationId?: string;
  log: VersionLog;
}

/**
 * Null when `claim`'s entry is proven to be in `checkpoint`'s tree: by its proof when it is for that tree, else by the
 * tiles, with the proof checked against the root of its own (earlier) tree, which the tiles prove to be a prefix of the
 * checkpoint's. Else what is wrong. A tile that cannot be read throws its {@link NetworkError}.
 */
export async function inclusionProblem(claim: LogClaim, checkpoint: Checkpoint, ctx: LogContext): Promise<string | null> {
  const problems = await versionLogProblems(claim.log, checkpoint, claim, tileFetcher(ctx));
  return problems.length ? problems.join('; ') : null;
}

/**
 * The publisher whose signature of `claim` (in its log entry) verifies, or null when the entry is unsigned. The keys are
 * the ones pinned for that publisher, else the registry's `/publishers/<name>.pub`. Throws {@link LogError} saying why
 * the signature does not verify.
 */
export async function verifyPublisherSignature(claim: LogClaim, ctx: LogContext, url = `${ctx.origin}/${CHECKPOINT_PATH}`): Promise<{ name: string; keyId: string } | null> {
  const entry = logEntry(claim.log);
  if (typeof entry === 'string') throw new LogError(url, entry);
  if (entry.signature === undefined || entry.keyId === undefined || entry.publisher === undefined) return null;
  const keys = await publisherKeys(ctx, entry.publisher);
  const problem = await publicationSignatureProblem(claim, { publisher: entry.publisher, keyId: entry.keyId, signature: entry.signature }, keys);
  if (problem) throw new LogError(url, `the publisher signature of ${claim.id}@${claim.version} fails: ${problem}`);
  return { name: entry.publisher, keyId: entry.keyId };
}

/**
 * Proves that `doc` is in the log: its `log` entry names the version with its record hash and publication, its leaf
 * is in the tree of the checkpoint (read now, its signature checked against the pinned keys), and a publisher
 * signature in the entry verifies. Throws {@link LogError} naming what failed.
 */
export async function verifyDocumentInLog(
  doc: Pick<ApiVersion, 'id' | 'version' | 'publication'> & { log?: VersionLog | null },
  ctx: LogContext,
  checkpoint?: { checkpoint: Checkpoint; info: CheckpointInfo },
): Promise<Omit<LogVerification, 'consistency'> & { tree: Checkpoint }> {
  const key = `${doc.id}@${doc.version}`;
  const log = doc.log;
  if (!log) throw new LogError(`${ctx.origin}/${CHECKPOINT_PATH}`, `${key} carries no log proof`);
  const url = await ctx.resolveUrl(log.checkpoint);
  const current = checkpoint ?? (await fetchCheckpoint(ctx, url));
  const claim: LogClaim = { id: doc.id, version: doc.version, recordHash: doc.publication.recordHash, publicationId: doc.publication.publicationId, log };
  const problem = await inclusionProblem(claim, current.checkpoint, ctx);
  if (problem) throw new LogError(url, problem);
  const entry = logEntry(log);
  if (typeof entry === 'string') throw new LogError(url, entry);
  const pub = doc.publication;
  if (pub.signature !== entry.signature || pub.keyId !== entry.keyId) {
    throw new LogError(url, `the publication record of ${key} and its log entry carry different signatures`);
  }
  const publisher = await verifyPublisherSignature(claim, ctx, url);
  return { leafIndex: log.leafIndex, checkpoint: current.info, publisher, tree: current.checkpoint };
}

/** Verifier keys from texts (a key per string, or a file's lines), for an option; `what` names it in the error. */
export function pinnedKeys(texts: string | readonly string[] | undefined, what: string): VerifierKey[] {
  const list = typeof texts === 'string' ? [texts] : (texts ?? []);
  return list
    .flatMap((t) => t.split('\n'))
    .map((t) => t.trim())
    .filter((t) => t !== '' && !t.startsWith('#'))
    .map((t) => {
      try {
        return parseVerifierKey(t);
      } catch (error) {
        throw new TypeError(`${what}: ${(error as Error).message}`);
      }
    });
}
