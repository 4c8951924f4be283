/**
 * Retractions, `registry/retractions.jsonl`: one line per retracted version, appended and never rewritten.
 * A retracted version stays published, readable and verifiable (its bytes never change); it is only marked,
 * with a reason, and skipped by `latest`. Pure.
 */
import { isDateTime, ledgerLines, type LedgerProblem } from './ledger.ts';
import { isSri } from '../format/sri.ts';

/** The retractions file's name, in `registry/` and at the root of the built site. */
export const RETRACTIONS_FILE = 'retractions.jsonl';

/** What the site says about a retracted version. */
export interface Retracted {
  reason: string;
  retractedAt: string;
}

/** One line of the retractions file. `recordHash` binds it to the exact published manifest. */
export interface RetractionEntry extends Retracted {
  id: string;
  version: string;
  recordHash: string;
}

const KEYS = ['id', 'version', 'recordHash', 'retractedAt', 'reason'] as const;

/** The exact text of a retraction line (keys in a fixed order, no spaces, no newline). */
export function retractionLine(entry: RetractionEntry): string {
  const ordered: Record<string, unknown> = {};
  for (const key of KEYS) ordered[key] = entry[key];
  return JSON.stringify(ordered);
}

/** Parses the retractions file: shape, canonical form, at most one retraction per version. `lineOf[i]` is the line of `entries[i]`. */
export function parseRetractions(text: string): { entries: RetractionEntry[]; lineOf: number[]; problems: LedgerProblem[] } {
  const { lines, problems } = ledgerLines(text);
  const entries: RetractionEntry[] = [];
  const lineOf: number[] = [];
  const seen = new Map<string, number>();
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      problems.push({ line: n, message: `is not JSON: ${(e as Error).message}` });
      return;
    }
    const shape = shapeProblem(parsed);
    if (shape) {
      problems.push({ line: n, message: shape });
      return;
    }
    const entry = parsed as RetractionEntry;
    const key = `${entry.id}@${entry.version}`;
    if (retractionLine(entry) !== line) problems.push({ line: n, message: `(${key}) is not in canonical form (keys ${KEYS.join(', ')} in this order, no spaces)` });
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.push({ line: n, message: `(${key}) is already retracted on line ${earlier}` });
    if (earlier === undefined) seen.set(key, n);
    entries.push(entry);
    lineOf.push(n);
  });
  return { entries, lineOf, problems };
}

function shapeProblem(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'must be a JSON object';
  const o = e as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) return `unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
  for (const k of KEYS) if (typeof o[k] !== 'string') return `${k} must be a string`;
  if (o.id === '' || o.version === '') return 'id and version must not be empty';
  if (!isSri(o.recordHash as string)) return 'recordHash must be sha256-<base64 of the 32-byte digest> (the record hash of the version)';
  if (!isDateTime(o.retractedAt as string)) return 'retractedAt must be an RFC 3339 date-time with an offset or Z';
  if (!/\S/.test(o.reason as string)) return 'reason must say why the version is retracted';
  return null;
}

/** The retractions text with one more line; throws when `text` is invalid or the version is already retracted. */
export function appendRetraction(text: string, entry: RetractionEntry): string {
  const { entries, problems } = parseRetractions(text);
  if (problems.length) throw new Error(`cannot append to broken retractions: line ${problems[0]!.line}: ${problems[0]!.message}`);
  const key = `${entry.id}@${entry.version}`;
  const at = entries.findIndex((e) => `${e.id}@${e.version}` === key);
  if (at >= 0) throw new Error(`${key} is already retracted on line ${at + 1}`);
  const line = retractionLine(entry);
  const shape = shapeProblem(JSON.parse(line));
  if (shape) throw new Error(`cannot retract ${key}: ${shape}`);
  return `${text}${line}\n`;
}

