/**
 * The `log` object of a version's `agent.json` and API document: where the checkpoint is, the version's ledger line
 * (the leaf), its index, and the RFC 9162 inclusion proof of that leaf in the tree of the checkpoint of the same build.
 * And what a client checks of it. Pure.
 */
import { decodeBase64Exact, toBase64 } from './base64.ts';
import type { Checkpoint } from './checkpoint.ts';
import type { LedgerEntry } from './ledger.ts';
import { inclusionProblem } from './merkle-proof.ts';
import { leafHash } from './merkle-tree.ts';

/** A version's proof of inclusion in the log. */
export interface VersionLog {
  /** URL of the checkpoint (`/checkpoint`). */
  checkpoint: string;
  /** The size of the tree the proof is for: the checkpoint of the build that wrote it. */
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

/**
 * Every problem of a version's `log` against a checkpoint and the version it should prove: the entry must name the
 * version with its record hash (and publication), sit at its own index, and the proof must lead from its leaf to the
 * checkpoint's root at the checkpoint's size. Empty when the version is in the log.
 */
export function versionLogProblems(log: VersionLog, checkpoint: Checkpoint, expected: ExpectedVersion): string[] {
  const out: string[] = [];
  const key = `${expected.id}@${expected.version}`;
  const entry = logEntry(log);
  if (typeof entry === 'string') return [entry];
  if (entry.id !== expected.id || entry.version !== expected.version) out.push(`the log entry names ${entry.id}@${entry.version}, not ${key}`);
  if (entry.recordHash !== expected.recordHash) out.push(`the log entry has record hash ${entry.recordHash}, but ${key} has ${expected.recordHash}`);
  if (expected.publicationId !== undefined && entry.publicationId !== expected.publicationId) {
    out.push(`the log entry has publication ${entry.publicationId}, but ${key} says ${expected.publicationId}`);
  }
  if (entry.seq !== log.leafIndex + 1) out.push(`the log entry is line ${entry.seq} of the ledger, but its leaf index is ${log.leafIndex}`);
  if (log.treeSize !== checkpoint.size) {
    out.push(`the proof is for a tree of ${log.treeSize} entries, but the checkpoint is of ${checkpoint.size}`);
    return out;
  }
  const proof = proofHashes(log);
  if (typeof proof === 'string') return [...out, proof];
  const problem = inclusionProblem(log.leafIndex, log.treeSize, entryLeafHash(log.entry), proof, checkpoint.rootHash);
  if (problem) out.push(`${key} is not proven to be in the log: ${problem}`);
  return out;
}
