/**
 * `check --base <ref>` for `registry/publishers/<name>.pub`: a file that exists at `<ref>` is append-only, and each key
 * added to it must be endorsed by a key the publisher had at `<ref>` (see key-endorsement.ts), so that a pull request
 * cannot slip its own key into another publisher's file. A new file, a new publisher, is reviewed as such.
 */
import { parseEndorsement, verifyEndorsement } from '@aso-registry/core/log/key-endorsement';
import { parseVerifierKey, type VerifierKey } from '@aso-registry/core/log/signed-note';
import { readOptionalText } from '../io/read-optional-text.ts';
import { publisherKeyPath } from './registry-keys.ts';

/** One refusal, by absolute path; the caller makes the path relative. */
export interface KeyFileProblem {
  path: string;
  pointer?: string;
  message: string;
}

const KEYS_APPEND_ONLY = "a publisher's key file is append-only (add keys at the end; never edit, remove or reorder a line), so that what each key signed keeps verifying";

interface KeyLine {
  /** 1-based. */
  line: number;
  key: VerifierKey;
}

/**
 * Compares each publisher key file at the base (`baseFiles`: publisher name to its text at `ref`) with the file now.
 * `baseLedger` (the ledger's text at `ref`, or null) names the versions a removed key signed.
 */
export async function publisherKeyProblems(registryRoot: string, ref: string, baseFiles: ReadonlyMap<string, string>, baseLedger: string | null): Promise<KeyFileProblem[]> {
  const problems: KeyFileProblem[] = [];
  // Read from the ledger only when a key of the base is gone: most checks never need it.
  let signed: Map<string, string[]> | undefined;
  const signedNote = (k: VerifierKey): string => {
    signed ??= signedByKey(baseLedger);
    const versions = signed.get(`${k.name}+${k.keyId}`) ?? [];
    if (versions.length === 0) return '';
    const shown = versions.slice(0, 3).join(', ');
    return ` (it signed ${shown}${versions.length > 3 ? ` and ${versions.length - 3} more` : ''})`;
  };
  for (const [name, older] of [...baseFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const path = publisherKeyPath(registryRoot, name);
    const at = (message: string, line?: number): void => void problems.push({ path, ...(line ? { pointer: `line ${line}` } : {}), message });
    const before = lines(older);
    const oldKeys = keyLines(before);
    let newer: string | null;
    try {
      newer = await readOptionalText(path);
    } catch (error) {
      at((error as Error).message.replace(`${path} `, ''));
      continue;
    }
    if (newer === null) {
      const lost = oldKeys.map(({ key }) => `${key.name}+${key.keyId}${signedNote(key)}`).join(', ');
      at(`removed since ${ref}, with its keys ${lost}; ${KEYS_APPEND_ONLY}`);
      continue;
    }
    const after = lines(newer);
    const newKeys = keyLines(after);
    const nowAt = new Map(newKeys.map((k) => [k.key.text, k.line]));

    // Lines of the base: the first that differs, then every other key of the base that is gone.
    const first = before.findIndex((l, i) => after[i] !== l);
    if (first >= 0) {
      const old = oldKeys.find((k) => k.line === first + 1);
      const movedTo = old ? nowAt.get(old.key.text) : after.indexOf(before[first]!, first + 1) + 1 || undefined;
      // A key that is nowhere in the file now was removed, whatever took its line.
      const what = movedTo !== undefined ? `moved to line ${movedTo}` : first < after.length && !old ? 'changed' : 'removed';
      at(old ? `key ${old.key.name}+${old.key.keyId} was ${what} since ${ref}${signedNote(old.key)}; ${KEYS_APPEND_ONLY}` : `${what} since ${ref}; ${KEYS_APPEND_ONLY}`, first + 1);
      for (const k of oldKeys) {
        if (k.line > first + 1 && !nowAt.has(k.key.text)) at(`key ${k.key.name}+${k.key.keyId} was removed since ${ref}${signedNote(k.key)}; ${KEYS_APPEND_ONLY}`, k.line);
      }
    }

    // Keys that are new: each needs the endorsement of a key of the base.
    const baseKeys = oldKeys.map((k) => k.key);
    const known = baseKeys.map((k) => `${k.name}+${k.keyId}`).join(', ') || 'none';
    const baseTexts = new Set(baseKeys.map((k) => k.text));
    for (const [i, { line, key }] of newKeys.entries()) {
      if (baseTexts.has(key.text)) continue;
      const id = `${key.name}+${key.keyId}`;
      const end = newKeys[i + 1]?.line ?? after.length + 1;
      let endorsed = false;
      let reported = false;
      const refuse = (message: string, n: number): void => {
        at(message, n);
        reported = true;
      };
      for (let n = line + 1; n < end; n++) {
        const e = parseEndorsement(after[n - 1]!);
        if (e === null) continue;
        if (typeof e === 'string') {
          refuse(e, n);
          continue;
        }
        const by = baseKeys.find((k) => k.name === e.name && k.keyId === e.keyId);
        if (!by) refuse(`the endorsement of ${id} is by ${e.name}+${e.keyId}, which is not a key "${name}" had at ${ref} (${known})`, n);
        else if (!(await verifyEndorsement(key, e, by))) refuse(`the endorsement of ${id} by ${e.name}+${e.keyId} does not verify`, n);
        else endorsed = true;
      }
      if (endorsed || reported) continue;
      at(
        `key ${id} was added since ${ref} without an endorsement: a new key of "${name}" must be endorsed by a key "${name}" had at ${ref} (${known}); ` +
          `run npm run log -- keygen --publisher ${name} with ASO_PUBLISHER_KEY_FILE set to that key, which writes "# endorsed by <name>+<key id> <signature>" after the new key`,
        line,
      );
    }
  }
  return problems;
}

/** The lines of a file, without the empty string after a final newline. */
function lines(text: string): string[] {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  return all;
}

/** The verifier keys among `lines`; comments, blank and malformed lines are not keys (the tree check names the latter). */
function keyLines(lines: string[]): KeyLine[] {
  const out: KeyLine[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      out.push({ line: i + 1, key: parseVerifierKey(line) });
    } catch {
      // Not a key: only its place in the file matters here.
    }
  });
  return out;
}

/** The versions each key signed, by `<publisher>+<key id>`, from the ledger's signed lines. */
function signedByKey(ledger: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of ledger?.split('\n') ?? []) {
    let entry: { id?: unknown; version?: unknown; publisher?: unknown; keyId?: unknown; signature?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (typeof entry.publisher !== 'string' || typeof entry.keyId !== 'string' || typeof entry.signature !== 'string') continue;
    const key = `${entry.publisher}+${entry.keyId}`;
    const versions = out.get(key) ?? [];
    versions.push(`${String(entry.id)}@${String(entry.version)}`);
    out.set(key, versions);
  }
  return out;
}
