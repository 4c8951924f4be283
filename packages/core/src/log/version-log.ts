/**
 * The `log` object of a version's `agent.json`, API document and record page: where the checkpoint is, the version's
 * ledger line (the leaf), its index, and the RFC 9162 inclusion proof of that leaf in the tree right after its line was
 * appended, so that the object never changes once written. And what a client checks of it against today's checkpoint,
 * with the hash tiles. Pure.
 */
import { decodeBase64Exact, toBase64 } from './base64.ts';
import type { Checkpoint } from './checkpoint.ts';
import type { LedgerEntry } from './ledger.ts';
import { consistencyProblem, inclusionProblem, rootFromInclusion } from './merkle-proof.ts';
import { consistencyProof, consistencyRanges, inclusionProof, inclusionRanges, leafHash } from './merkle-tree.ts';
import { fetchTileSource, type FetchTile } from './tlog-tiles.ts';

/**
 * A version's proof of inclusion in the log. It depends only on the ledger up to the version's own line: the proof is
 * for the tree of `leafIndex + 1` entries, so later publications never change it. A client proves the same leaf in the
 * tree of today's signed checkpoint from the hash tiles (and that the given proof's tree is a prefix of that one).
 */
export interface VersionLog {
  /** URL of the checkpoint (`/checkpoint`), next to which the hash tiles (`tile/…`) are served. */
  checkpoint: string;
  /** The size of the tree the proof is for: `leafIndex + 1`, the tree right after the version's ledger line was appended. */
  treeSize: number;
  /** The version's leaf: its ledger line's `seq` minus one. */
  leafIndex: number;
  /** The exact ledger line (without its newline): the leaf is SHA-256(0x00 || its UTF-8 bytes). */
  entry: string;
  /** The inclusion proof, base64 hashes, leaf to root. */
  inclusionProof: string[];
}

/** What a client knows of the version it checks. */
export interface ExpectedVersion {
  id: string;
  version: string;
  recordHash: string;
  publicationId?: string;
}

/** What a record page hands the browser's check of a version's place in the log (written as JSON into the page). */
export interface VersionLogView {
  /** The configured registry origin; URLs on it are fetched from the page's own origin. */
  registryUrl: string;
  /** The log's verifier key as `registry/log.pub` commits it, or null when the registry commits none. */
  logKey: string | null;
  /** The version's `log` object (the same as in its agent.json). */
  log: VersionLog;
  /** The version as the page shows it. */
  expected: ExpectedVersion;
  /** The publisher's verifier keys (`registry/publishers/<name>.pub`), when the version is signed. */
  publisherKeys: string[];
}

const encoder = new TextEncoder();

/** The `log` object of a leaf. */
export function versionLog(checkpointUrl: string, treeSize: number, leafIndex: number, entry: string, proof: readonly Uint8Array[]): VersionLog {
  return { checkpoint: checkpointUrl, treeSize, leafIndex, entry, inclusionProof: proof.map(toBase64) };
}

/** The leaf hash of a ledger line. */
export function entryLeafHash(entry: string): Uint8Array {
  return leafHash(encoder.encode(entry));
}

/** The ledger entry of a `log` object, or a sentence saying why it is not one. */
export function logEntry(log: VersionLog): LedgerEntry | string {
  try {
    const entry = JSON.parse(log.entry) as unknown;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'the entry is not a JSON object';
    return entry as LedgerEntry;
  } catch {
    return 'the entry is not JSON';
  }
}

/** The proof's hashes as bytes, or a sentence saying which one is not a base64 hash. */
export function proofHashes(log: VersionLog): Uint8Array[] | string {
  if (!Array.isArray(log.inclusionProof)) return 'inclusionProof is not a list';
  const out: Uint8Array[] = [];
  for (const [i, h] of log.inclusionProof.entries()) {
    const bytes = typeof h === 'string' ? decodeBase64Exact(h) : null;
    if (!bytes) return `inclusionProof/${i} is not base64`;
    out.push(bytes);
  }
  return out;
}

/** The problems of a `log` object's entry against the version it should prove: its id, version, record hash, publication and line. */
function entryProblems(log: VersionLog, expected: ExpectedVersion): string[] | string {
  const out: string[] = [];
  const key = `${expected.id}@${expected.version}`;
  const entry = logEntry(log);
  if (typeof entry === 'string') return entry;
  if (entry.id !== expected.id || entry.version !== expected.version) out.push(`the log entry names ${entry.id}@${entry.version}, not ${key}`);
  if (entry.recordHash !== expected.recordHash) out.push(`the log entry has record hash ${entry.recordHash}, but ${key} has ${expected.recordHash}`);
  if (expected.publicationId !== undefined && entry.publicationId !== expected.publicationId) {
    out.push(`the log entry has publication ${entry.publicationId}, but ${key} says ${expected.publicationId}`);
  }
  if (entry.seq !== log.leafIndex + 1) out.push(`the log entry is line ${entry.seq} of the ledger, but its leaf index is ${log.leafIndex}`);
  return out;
}

/**
 * Every problem of a version's `log` against a signed checkpoint and the version it should prove; empty when the
 * version is in the checkpoint's tree. The entry must name the version with its record hash (and publication) and sit
 * at its own index. A proof for the checkpoint's own tree must lead to its root. A proof for an earlier tree (as the
 * build writes them: the tree right after the version's line) is not trusted alone: the leaf's inclusion in the
 * checkpoint's tree is computed from the hash tiles read with `fetchTile`, and the given proof must lead to a root that
 * a consistency proof, from the same tiles, shows to be a prefix of the checkpoint's tree. A rejection of `fetchTile`
 * passes through (the caller knows what a network failure is); unusable tiles are a problem.
 */
export async function versionLogProblems(log: VersionLog, checkpoint: Checkpoint, expected: ExpectedVersion, fetchTile: FetchTile): Promise<string[]> {
  const key = `${expected.id}@${expected.version}`;
  const entry = entryProblems(log, expected);
  if (typeof entry === 'string') return [entry];
  const out = [...entry];
  const size = checkpoint.size;
  if (!Number.isSafeInteger(log.treeSize) || log.treeSize > size) {
    out.push(`the proof is for a tree of ${log.treeSize} entries, but the checkpoint is of ${size}`);
    return out;
  }
  const proof = proofHashes(log);
  if (typeof proof === 'string') return [...out, proof];
  const leaf = entryLeafHash(log.entry);
  const notProven = (problem: string): string => `${key} is not proven to be in the log: ${problem}`;
  if (log.treeSize === size) {
    const problem = inclusionProblem(log.leafIndex, size, leaf, proof, checkpoint.rootHash);
    return problem ? [...out, notProven(problem)] : out;
  }
  // The proof is for an earlier tree: its root is checked only through the checkpoint's (a consistency proof).
  const given = rootFromInclusion(log.leafIndex, log.treeSize, leaf, proof);
  if (typeof given === 'string') return [...out, notProven(`its inclusion proof does not fit a tree of ${log.treeSize} entries: ${given}`)];
  const source = await fetchTileSource([...inclusionRanges(log.leafIndex, size), ...consistencyRanges(log.treeSize, size)], size, fetchTile);
  let inCheckpoint: Uint8Array[];
  let prefix: Uint8Array[];
  try {
    inCheckpoint = inclusionProof(source, log.leafIndex, size);
    prefix = consistencyProof(source, log.treeSize, size);
  } catch (error) {
    return [...out, `the tiles of the tree of ${size} entries are not usable: ${(error as Error).message}`];
  }
  const included = inclusionProblem(log.leafIndex, size, leaf, inCheckpoint, checkpoint.rootHash);
  if (included) return [...out, notProven(included)];
  const consistent = consistencyProblem(log.treeSize, size, given, checkpoint.rootHash, prefix);
  if (consistent) return [...out, notProven(`the root its inclusion proof leads to is not that of the checkpoint's first ${log.treeSize} entries (${consistent})`)];
  return out;
}
