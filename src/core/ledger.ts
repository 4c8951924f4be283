/**
 * The publication ledger, `registry/ledger.jsonl`: one line per publication, appended and never rewritten.
 * Each line carries `prev`, the SRI of the previous line's exact bytes, so any edit, removal or reordering
 * breaks the chain. Pure: hashing uses WebCrypto.
 */
import { sriOf } from './sri.ts';

/** One publication in the ledger. */
export interface LedgerEntry {
  seq: number;
  publicationId: string;
  id: string;
  version: string;
  recordHash: string;
  publishedAt: string;
  /** SRI of the previous line's exact bytes (without its newline); absent on the first line. */
  prev?: string;
}

/** One thing wrong with a ledger: the line number (1-based) and what. */
export interface LedgerProblem {
  line: number;
  message: string;
}

const KEYS = ['seq', 'publicationId', 'id', 'version', 'recordHash', 'publishedAt', 'prev'] as const;
const encoder = new TextEncoder();

/** The exact text of a ledger line (keys in a fixed order, no spaces, no newline). */
export function ledgerLine(entry: LedgerEntry): string {
  const ordered: Record<string, unknown> = {};
  for (const key of KEYS) if (entry[key] !== undefined) ordered[key] = entry[key];
  return JSON.stringify(ordered);
}

/** The lines of a ledger file: it must end with a newline and have no empty lines. */
export function ledgerLines(text: string): { lines: string[]; problems: LedgerProblem[] } {
  if (text === '') return { lines: [], problems: [] };
  const problems: LedgerProblem[] = [];
  if (!text.endsWith('\n')) problems.push({ line: text.split('\n').length, message: 'the ledger must end with a newline' });
  const lines = text.replace(/\n$/, '').split('\n');
  lines.forEach((l, i) => {
    if (l.trim() === '') problems.push({ line: i + 1, message: 'empty line' });
  });
  return { lines, problems };
}

/** SRI of a line's exact bytes: the `prev` of the next line. */
export function lineHash(line: string): Promise<string> {
  return sriOf(encoder.encode(line));
}

/** Parses and verifies the whole chain: shape, `seq` from 1, `prev` links, no version twice. */
export async function verifyLedger(text: string): Promise<{ entries: LedgerEntry[]; problems: LedgerProblem[]; head: string | null }> {
  const { lines, problems } = ledgerLines(text);
  const entries: LedgerEntry[] = [];
  const seen = new Map<string, number>();
  let prevHash: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = i + 1;
    let entry: LedgerEntry;
    try {
      entry = JSON.parse(line) as LedgerEntry;
    } catch (e) {
      problems.push({ line: n, message: `not JSON: ${(e as Error).message}` });
      prevHash = await lineHash(line);
      continue;
    }
    const shape = entryShapeProblem(entry);
    if (shape) problems.push({ line: n, message: shape });
    else {
      if (entry.seq !== n) problems.push({ line: n, message: `seq is ${entry.seq}, expected ${n}` });
      if (i === 0 && entry.prev !== undefined) problems.push({ line: n, message: 'the first line must not have prev' });
      if (i > 0 && entry.prev !== prevHash) problems.push({ line: n, message: `prev is ${entry.prev ?? '(missing)'}, expected ${prevHash} (the hash of line ${n - 1})` });
      if (ledgerLine(entry) !== line) problems.push({ line: n, message: 'not in canonical form (keys seq, publicationId, id, version, recordHash, publishedAt, prev; no spaces)' });
      const key = `${entry.id}@${entry.version}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) problems.push({ line: n, message: `${key} is already published on line ${earlier}` });
      seen.set(key, n);
      entries.push(entry);
    }
    prevHash = await lineHash(line);
  }
  return { entries, problems, head: prevHash };
}

function entryShapeProblem(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'must be a JSON object';
  const o = e as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) return `unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
  if (!Number.isInteger(o.seq)) return 'seq must be an integer';
  for (const k of ['publicationId', 'id', 'version', 'recordHash', 'publishedAt'] as const) {
    if (typeof o[k] !== 'string' || o[k] === '') return `${k} must be a non-empty string`;
  }
  if (o.prev !== undefined && typeof o.prev !== 'string') return 'prev must be a string';
  return null;
}

/** The ledger text with one more publication appended; `text` must already be a valid ledger. */
export async function appendToLedger(text: string, entry: Omit<LedgerEntry, 'seq' | 'prev'>): Promise<string> {
  const { lines } = ledgerLines(text);
  const last = lines.at(-1);
  const next: LedgerEntry = {
    seq: lines.length + 1,
    publicationId: entry.publicationId,
    id: entry.id,
    version: entry.version,
    recordHash: entry.recordHash,
    publishedAt: entry.publishedAt,
    ...(last !== undefined ? { prev: await lineHash(last) } : {}),
  };
  return `${text}${ledgerLine(next)}\n`;
}

/** True when `older` is a prefix of `newer`, line for line: nothing was rewritten, removed or reordered. */
export function isLedgerPrefix(older: string, newer: string): { ok: boolean; line?: number } {
  const a = ledgerLines(older).lines;
  const b = ledgerLines(newer).lines;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return { ok: false, line: i + 1 };
  return { ok: true };
}
