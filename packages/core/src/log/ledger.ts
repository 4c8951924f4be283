/**
 * The publication ledger, `registry/ledger.jsonl`: one line per publication, appended and never rewritten.
 * Each line carries `prev`, the SRI of the previous line's exact bytes, so any edit, removal or reordering
 * breaks the chain. Pure and synchronous: SHA-256 from @noble/hashes (a ledger of 100,000 lines is hashed in well
 * under a second; WebCrypto's digest costs a promise and a trip to another thread per line).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { API_BASE } from '../format/paths.ts';
import { isSri, sriFromDigest } from '../format/sri.ts';

/** The ledger's file name, in `registry/` and at the root of the built site. */
export const LEDGER_FILE = 'ledger.jsonl';

/** The site path of the ledger checkpoint document. */
export const LEDGER_CHECKPOINT_PATH = `${API_BASE}/ledger.json`;

/** One publication in the ledger. */
export interface LedgerEntry {
  seq: number;
  publicationId: string;
  id: string;
  version: string;
  recordHash: string;
  publishedAt: string;
  /** On a signed publication: the publisher, the name of the key that signed it (see publication-signature.ts). */
  publisher?: string;
  /** On a signed publication: the key ID, 8 lowercase hex digits. */
  keyId?: string;
  /** On a signed publication: the publisher's Ed25519 signature, base64. */
  signature?: string;
  /** SRI of the previous line's exact bytes (without its newline); absent on the first line. */
  prev?: string;
}

/** What a publication contributes to its ledger line (the rest is computed on append). */
export type LedgerPublication = Omit<LedgerEntry, 'seq' | 'prev'>;

/** One thing wrong with a ledger: the line number (1-based) and what. */
export interface LedgerProblem {
  line: number;
  message: string;
}

/** A verified ledger: its entries in order, the problems found, and the hash of its last line. */
export interface VerifiedLedger {
  entries: LedgerEntry[];
  problems: LedgerProblem[];
  /** SRI of the last line's exact bytes, or null for an empty ledger. */
  head: string | null;
}

const KEYS = ['seq', 'publicationId', 'id', 'version', 'recordHash', 'publishedAt', 'publisher', 'keyId', 'signature', 'prev'] as const;
const SIGNED_KEYS = ['publisher', 'keyId', 'signature'] as const;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** RFC 3339 date-time with an offset or Z. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const encoder = new TextEncoder();

/** The exact text of a ledger line (keys in a fixed order, no spaces, no newline). */
export function ledgerLine(entry: LedgerEntry): string {
  const ordered: Record<string, unknown> = {};
  for (const key of KEYS) if (entry[key] !== undefined) ordered[key] = entry[key];
  return JSON.stringify(ordered);
}

/** The lines of a JSON Lines file: it must end with a newline, use LF line endings and have no empty lines. */
export function ledgerLines(text: string): { lines: string[]; problems: LedgerProblem[] } {
  if (text === '') return { lines: [], problems: [] };
  const problems: LedgerProblem[] = [];
  const lines = text.replace(/\n$/, '').split('\n');
  if (!text.endsWith('\n')) {
    const last = lines.length;
    problems.push({ line: last, message: isTorn(lines[last - 1]!) ? TORN_LINE : 'the file must end with a newline' });
  }
  lines.forEach((l, i) => {
    if (l.trim() === '') problems.push({ line: i + 1, message: 'empty line' });
    else if (l.endsWith('\r')) problems.push({ line: i + 1, message: 'ends with a carriage return; lines end with LF only (check git\'s core.autocrlf)' });
  });
  return { lines, problems };
}

/** What check says of a last line that an interrupted append cut short. */
export const TORN_LINE =
  'is cut short (no newline at the end and not whole JSON): an append was interrupted, by a crash say, and that publication was not recorded; delete this partial line, then append the version again (npx tsx scripts/ledger.ts append <id>@<version>)';

/** True when `line` is not whole JSON: what a write cut off before its newline leaves. */
function isTorn(line: string): boolean {
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

/** SRI of a line's exact bytes: the `prev` of the next line. */
export function lineHash(line: string): string {
  return sriFromDigest(sha256(encoder.encode(line)));
}

/** Parses and verifies the whole chain: shape, `seq` from 1, `prev` links, no version or publication twice. */
export async function verifyLedger(text: string): Promise<VerifiedLedger> {
  const { lines, problems } = ledgerLines(text);
  const entries: LedgerEntry[] = [];
  const seenVersion = new Map<string, number>();
  const seenPublication = new Map<string, number>();
  let prevHash: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = i + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      // A torn last line is reported once, by ledgerLines.
      const torn = n === lines.length && !text.endsWith('\n');
      if (line.trim() !== '' && !torn) problems.push({ line: n, message: `is not JSON: ${(e as Error).message}` });
      prevHash = lineHash(line);
      continue;
    }
    const shape = entryShapeProblem(parsed);
    if (shape) problems.push({ line: n, message: shape });
    else {
      const entry = parsed as LedgerEntry;
      const key = `${entry.id}@${entry.version}`;
      const at = (message: string): void => void problems.push({ line: n, message: `(${key}) ${message}` });
      if (entry.seq !== n) at(`seq is ${entry.seq}, expected ${n}`);
      if (i === 0 && entry.prev !== undefined) at('the first line must not have prev');
      if (i > 0 && entry.prev !== prevHash) {
        at(`prev is ${entry.prev ?? '(missing)'}, expected ${prevHash} (the hash of line ${n - 1}); lines were changed, removed or reordered`);
      }
      if (ledgerLine(entry) !== line) at(`is not in canonical form (keys ${KEYS.join(', ')} in this order, no spaces)`);
      const earlier = seenVersion.get(key);
      if (earlier !== undefined) at(`${key} is already published on line ${earlier}`);
      const earlierPublication = seenPublication.get(entry.publicationId);
      if (earlierPublication !== undefined) at(`publicationId ${entry.publicationId} is already used on line ${earlierPublication}`);
      if (earlier === undefined) seenVersion.set(key, n);
      if (earlierPublication === undefined) seenPublication.set(entry.publicationId, n);
      entries.push(entry);
    }
    prevHash = lineHash(line);
  }
  return { entries, problems, head: prevHash };
}

function entryShapeProblem(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'must be a JSON object';
  const o = e as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) return `unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
  if (!Number.isInteger(o.seq) || (o.seq as number) < 1) return 'seq must be a positive integer';
  for (const k of ['publicationId', 'id', 'version', 'recordHash', 'publishedAt'] as const) {
    if (typeof o[k] !== 'string' || o[k] === '') return `${k} must be a non-empty string`;
  }
  if (!UUID.test(o.publicationId as string)) return 'publicationId must be a UUID (8-4-4-4-12 hexadecimal digits)';
  if (!isSri(o.recordHash as string)) return 'recordHash must be sha256-<base64 of the 32-byte digest>';
  if (!isDateTime(o.publishedAt as string)) return 'publishedAt must be an RFC 3339 date-time with an offset or Z';
  if (o.prev !== undefined && (typeof o.prev !== 'string' || !isSri(o.prev))) return 'prev must be sha256-<base64 of the 32-byte digest>';
  const signed = SIGNED_KEYS.filter((k) => o[k] !== undefined);
  if (signed.length > 0 && signed.length < SIGNED_KEYS.length) return `publisher, keyId and signature come together (found only ${signed.join(', ')})`;
  if (signed.length) {
    if (typeof o.publisher !== 'string' || o.publisher === '' || /[\s+]/.test(o.publisher)) return 'publisher must be a key name (no spaces, no "+")';
    if (typeof o.keyId !== 'string' || !/^[0-9a-f]{8}$/.test(o.keyId)) return 'keyId must be 8 lowercase hex digits';
    if (typeof o.signature !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(o.signature)) return 'signature must be the base64 of a 64-byte Ed25519 signature';
  }
  return null;
}

/** True when `value` is an RFC 3339 date-time with an offset or Z that names a real instant. */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** The ledger text with one more publication appended; throws when `text` is not a valid ledger or already holds it. */
export async function appendToLedger(text: string, entry: LedgerPublication): Promise<string> {
  const { entries, problems, head } = await verifyLedger(text);
  if (problems.length) {
    const p = problems[0]!;
    throw new Error(`cannot append to a broken ledger: line ${p.line}: ${p.message}`);
  }
  const key = `${entry.id}@${entry.version}`;
  const same = entries.find((e) => `${e.id}@${e.version}` === key || e.publicationId === entry.publicationId);
  if (same) throw new Error(`${key} (publication ${entry.publicationId}) is already in the ledger on line ${same.seq}`);
  const next: LedgerEntry = {
    seq: entries.length + 1,
    publicationId: entry.publicationId,
    id: entry.id,
    version: entry.version,
    recordHash: entry.recordHash,
    publishedAt: entry.publishedAt,
    ...signedFields(entry),
    ...(head !== null ? { prev: head } : {}),
  };
  const line = ledgerLine(next);
  const shape = entryShapeProblem(JSON.parse(line));
  if (shape) throw new Error(`cannot append ${key}: ${shape}`);
  return `${text}${line}\n`;
}

/** The publisher, key ID and signature of a signed publication (nothing for an unsigned one). */
export function signedFields(p: Pick<LedgerEntry, 'publisher' | 'keyId' | 'signature'>): Pick<LedgerEntry, 'publisher' | 'keyId' | 'signature'> {
  return p.signature !== undefined ? { publisher: p.publisher!, keyId: p.keyId!, signature: p.signature } : {};
}

/** A new ledger holding `publications` in the order given (for a registry that starts keeping one). */
export async function ledgerFrom(publications: readonly LedgerPublication[]): Promise<string> {
  let text = '';
  let prev: string | undefined;
  for (const [i, p] of publications.entries()) {
    const { publicationId, id, version, recordHash, publishedAt } = p;
    const line = ledgerLine({ seq: i + 1, publicationId, id, version, recordHash, publishedAt, ...signedFields(p), ...(prev !== undefined ? { prev } : {}) });
    const shape = entryShapeProblem(JSON.parse(line));
    if (shape) throw new Error(`cannot add ${p.id}@${p.version}: ${shape}`);
    text += `${line}\n`;
    prev = lineHash(line);
  }
  const { problems } = await verifyLedger(text);
  if (problems.length) throw new Error(`line ${problems[0]!.line}: ${problems[0]!.message}`);
  return text;
}

/** How a newer ledger departs from an older one, when it is not an extension of it. */
export interface PrefixResult {
  ok: boolean;
  /** The first line of the older ledger that is not found unchanged in the newer one. */
  line?: number;
  /** `changed`: a different line is there; `moved`: the old line is now elsewhere; `removed`: the newer ledger is shorter. */
  kind?: 'changed' | 'moved' | 'removed';
  /** Where the old line is now, when it moved. */
  movedTo?: number;
}

/** True when `older` is a prefix of `newer`, line for line: nothing was rewritten, removed or reordered. */
export function isLedgerPrefix(older: string, newer: string): PrefixResult {
  const a = ledgerLines(older).lines;
  const b = ledgerLines(newer).lines;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (i >= b.length) return { ok: false, line: i + 1, kind: 'removed' };
    const at = b.indexOf(a[i]!);
    return at >= 0 ? { ok: false, line: i + 1, kind: 'moved', movedTo: at + 1 } : { ok: false, line: i + 1, kind: 'changed' };
  }
  return { ok: true };
}

/** The checkpoint of a ledger: how many lines it has and the hash of the last one. */
export interface LedgerCheckpoint {
  size: number;
  head: string | null;
}

/**
 * What a client checks of a served ledger before trusting a version: the ledger is a valid chain, it matches the
 * published checkpoint (size and head), and it holds exactly one line for the version, with the same record hash
 * (and publication id, when given). Returns one sentence per problem; empty when the version is in the ledger.
 */
export async function ledgerRecordProblems(
  text: string,
  checkpoint: LedgerCheckpoint,
  record: { id: string; version: string; recordHash: string; publicationId?: string },
): Promise<string[]> {
  const { entries, problems, head } = await verifyLedger(text);
  const out = problems.map((p) => `line ${p.line}: ${p.message}`);
  const size = ledgerLines(text).lines.length;
  if (size !== checkpoint.size) out.push(`the ledger has ${size} lines but the checkpoint says ${checkpoint.size}`);
  else if (head !== checkpoint.head) out.push(`the ledger's head is ${head ?? '(empty)'} but the checkpoint says ${checkpoint.head ?? '(empty)'}`);
  const key = `${record.id}@${record.version}`;
  const lines = entries.filter((e) => e.id === record.id && e.version === record.version);
  if (lines.length === 0) out.push(`${key} is not in the ledger`);
  for (const e of lines) {
    if (e.recordHash !== record.recordHash) out.push(`line ${e.seq}: ${key} has record hash ${e.recordHash}, but the version's record hash is ${record.recordHash}`);
    if (record.publicationId !== undefined && e.publicationId !== record.publicationId) {
      out.push(`line ${e.seq}: ${key} has publication ${e.publicationId}, but the version says ${record.publicationId}`);
    }
  }
  return out;
}

/** True when a ledger extends an older checkpoint: its line `size` hashes to the old head (what a mirror that remembers a checkpoint checks). */
export async function extendsCheckpoint(text: string, older: LedgerCheckpoint): Promise<boolean> {
  if (older.size === 0) return true;
  const line = ledgerLines(text).lines[older.size - 1];
  return line !== undefined && (lineHash(line)) === older.head;
}
