/**
 * The checkpoint's commitment to the retractions: one C2SP extension line after the root hash,
 * `retractions <count> sha256-<base64 of SHA-256 of the exact bytes of /retractions.jsonl>`, signed with the rest of
 * the checkpoint by the log key, so that a mirror can neither hide nor invent a retraction for a client that pinned it.
 * Other extension lines are left alone (C2SP: they are opaque). Pure.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { isSri, sriFromDigest } from '../format/sri.ts';
import { parseRetractions, type RetractionEntry } from './retractions.ts';

/** The first word of the extension line. */
const RETRACTIONS_EXTENSION = 'retractions';

/** What the line commits to: the number of lines of the retractions file and the SRI of its exact bytes. */
export interface RetractionsCommitment {
  count: number;
  hash: string;
}

const LF = 0x0a;

/** The commitment to the exact bytes of a retractions file (empty bytes when the registry has none). */
export function retractionsCommitment(bytes: Uint8Array): RetractionsCommitment {
  let count = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
  // A last line without its newline is a line too (check refuses it; the count stays honest about the bytes).
  if (bytes.length && bytes[bytes.length - 1] !== LF) count++;
  return { count, hash: sriFromDigest(sha256(bytes)) };
}

/** The extension line of a commitment. */
export function formatRetractionsLine(c: RetractionsCommitment): string {
  if (!Number.isSafeInteger(c.count) || c.count < 0) throw new Error(`the retractions count ${c.count} is not a whole number`);
  if (!isSri(c.hash)) throw new Error(`the retractions hash "${c.hash}" is not sha256-<base64 of 32 bytes>`);
  return `${RETRACTIONS_EXTENSION} ${c.count} ${c.hash}`;
}

/** Reads one `retractions` extension line; throws naming what is wrong. */
export function parseRetractionsLine(line: string): RetractionsCommitment {
  const parts = line.split(' ');
  if (parts[0] !== RETRACTIONS_EXTENSION) throw new Error(`the extension line "${line}" is not a ${RETRACTIONS_EXTENSION} line`);
  const [, countText, hash] = parts;
  if (parts.length !== 3 || countText === undefined || hash === undefined) {
    throw new Error(`the extension line "${line}" must be "${RETRACTIONS_EXTENSION} <count> sha256-<base64>", three words separated by single spaces`);
  }
  if (!/^(0|[1-9][0-9]*)$/.test(countText) || !Number.isSafeInteger(Number(countText))) throw new Error(`the extension line "${line}": "${countText}" is not a count of lines`);
  if (!isSri(hash)) throw new Error(`the extension line "${line}": "${hash}" is not sha256-<base64 of a 32-byte digest>`);
  return { count: Number(countText), hash };
}

/**
 * The commitment among a checkpoint's extension lines, or null when there is none. Lines of other extensions are
 * ignored; two `retractions` lines, or a malformed one, throw.
 */
export function findRetractionsCommitment(extensions: readonly string[]): RetractionsCommitment | null {
  const lines = extensions.filter((e) => e.split(' ', 1)[0] === RETRACTIONS_EXTENSION);
  if (lines.length > 1) throw new Error(`the checkpoint has ${lines.length} ${RETRACTIONS_EXTENSION} lines; it commits to one retractions file`);
  return lines.length ? parseRetractionsLine(lines[0]!) : null;
}

/**
 * True when the first `earlier.count` lines of `bytes` are the file `earlier` committed to: the retractions file only
 * grows, so a later one that does not begin with an earlier one was rewritten or rolled back.
 */
export function extendsCommitment(bytes: Uint8Array, earlier: RetractionsCommitment): boolean {
  let end = 0;
  for (let seen = 0; seen < earlier.count; seen++) {
    const at = bytes.indexOf(LF, end);
    if (at === -1) return false;
    end = at + 1;
  }
  return sriFromDigest(sha256(bytes.subarray(0, end))) === earlier.hash;
}

/** What a retractions file read against a commitment holds: its entries, other bytes than committed, or why it is no valid file. */
export type CommittedRetractions = { entries: RetractionEntry[] } | { actual: RetractionsCommitment } | { problem: string };

/**
 * Reads `bytes` as the retractions file `committed` names: its entries; or `actual`, the commitment of bytes that are
 * not that file; or the `problem` of the committed file itself (`is not UTF-8`, `is not valid: line N: ...`).
 */
export function readCommittedRetractions(bytes: Uint8Array, committed: RetractionsCommitment): CommittedRetractions {
  const actual = retractionsCommitment(bytes);
  if (actual.hash !== committed.hash || actual.count !== committed.count) return { actual };
  if (bytes.byteLength === 0) return { entries: [] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'is not UTF-8' };
  }
  const { entries, problems } = parseRetractions(text);
  const first = problems[0];
  return first ? { problem: `is not valid: line ${first.line}: ${first.message}` } : { entries };
}
