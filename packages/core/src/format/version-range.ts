/**
 * SemVer ranges read exactly as node-semver reads them (not loose, prereleases not included): `||`, hyphen ranges,
 * x-ranges, `~`, `^` and comparators. Small, since it ships in the SDK's browser bundle; node-semver's `Range` is not.
 * Its reading is a series of rewrites of the text, and quirks of that series decide which odd ranges are valid, so
 * the steps below follow it; test/core/format/version-range.test.ts holds them to node-semver itself.
 */
import { BUILD_IDS, comparePrecedence, NUMERIC_ID, parseVersion, PRERELEASE_ID, type Version } from './version.ts';

/** An operator (`''` for equal) and its version; null allows any version. */
type Comparator = { op: string; v: Version } | null;

const X = `${NUMERIC_ID}|[xX*]`;
const PRE = `${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*`;
/** A partial version after any `v`, `=` and spaces: major[.minor[.patch[-prerelease]]], each number maybe an x. */
const PARTIAL = `[v= ]*(${X})(?:\\.(${X})(?:\\.(${X})(?:-(${PRE}))?)?)?`;
const BUILD = new RegExp(`\\+${BUILD_IDS}`, 'g');
const HYPHEN = new RegExp(`^ ?(${PARTIAL}) - (${PARTIAL}) ?$`);
const TILDE_OR_CARET = new RegExp(`^(~>?|\\^)${PARTIAL}$`);
const XRANGE = new RegExp(`^([<>]?=?)${PARTIAL}$`);
const LOOSE_ID = '(?:\\d*[a-zA-Z-][a-zA-Z0-9-]*|\\d+)';
/** How far the operand of an operator reaches: a full version read loosely (`1.2.3beta`), else a partial one. */
const LOOSE_OPERAND = new RegExp(`\\d+\\.\\d+\\.\\d+(?:-?${LOOSE_ID}(?:\\.${LOOSE_ID})*)?`, 'y');
const PARTIAL_OPERAND = new RegExp(PARTIAL, 'y');
const OPERAND_START = /[\dxX*]/;
const DIGITS = /\d*/y;

const isX = (id: string | undefined): boolean => !id || /^[xX*]$/.test(id);

/** `a - b`: from a's lowest version to b's highest; a full `b` is kept as written, `v` or `=` included. */
function hyphen(...g: string[]): string {
  const [, from, fM, fm, fp, , to, tM, tm, tp, tpr] = g;
  const lo = isX(fM) ? '' : `>=${isX(fm) ? `${fM}.0.0` : isX(fp) ? `${fM}.${fm}.0` : from}`;
  const hi = isX(tM) ? '' : isX(tm) ? `<${+tM! + 1}.0.0-0` : isX(tp) ? `<${tM}.${+tm! + 1}.0-0` : tpr ? `<=${tM}.${tm}.${tp}-${tpr}` : `<=${to}`;
  return `${lo} ${hi}`.trim();
}

/** Drops the space after `<`, `>`, `=`, `<=` or `>=` when a version follows, skipping each operand as node-semver does. */
function trimOperators(s: string): string {
  let out = '';
  let copied = 0;
  let noLoose = -1; // a full loose version failed in the run of digits that ends here
  for (let i = 0; i < s.length; ) {
    const start = i;
    if (s[i] === '<' || s[i] === '>') i++;
    else if (!/[v= \dxX*]/.test(s[i]!)) {
      i++;
      continue;
    }
    while (/[v= ]/.test(s.charAt(i))) i++;
    if (!OPERAND_START.test(s.charAt(i))) continue;
    let p = start + +(s[start] === ' ');
    if (s[p] === '<' || s[p] === '>') p++;
    if (s[p] === '=') p++;
    if (s[p] === ' ') {
      out += s.slice(copied, p);
      copied = p + 1;
    }
    LOOSE_OPERAND.lastIndex = PARTIAL_OPERAND.lastIndex = i;
    if (i >= noLoose && LOOSE_OPERAND.test(s)) i = LOOSE_OPERAND.lastIndex;
    else {
      if (i >= noLoose) {
        DIGITS.lastIndex = i;
        DIGITS.test(s);
        noLoose = DIGITS.lastIndex;
      }
      PARTIAL_OPERAND.test(s);
      i = PARTIAL_OPERAND.lastIndex;
    }
  }
  return out + s.slice(copied);
}

/** `~` and `^`: from the partial version's lowest version to below the next one that may break it (`^0.x` is stricter). */
function bounded(word: string): string {
  const g = TILDE_OR_CARET.exec(word);
  if (!g) return word;
  const [, op, M, m, p, pre] = g as unknown as [string, string, string, string?, string?, string?];
  const caret = op === '^';
  if (isX(M)) return '';
  const from = isX(m) ? `${M}.0.0` : isX(p) ? `${M}.${m}.0` : `${M}.${m}.${p}${pre ? `-${pre}` : ''}`;
  const to =
    isX(m) || (caret && M !== '0') ? `${+M + 1}.0.0` : !caret || isX(p) || m !== '0' ? `${M}.${+m! + 1}.0` : `0.0.${+p! + 1}`;
  return `>=${from} <${to}-0`;
}

/** An x-range (`1.x`, `>=1.2`, `*`) as plain comparators; the word unchanged when it holds no x or is not one. */
function xRange(word: string): string {
  const g = XRANGE.exec(word);
  if (!g) return word;
  const [, op, M, m, p] = g as unknown as [string, string, string, string?, string?];
  // An x before a number (`x.1`, `1.x.3`) is no x-range.
  if ((isX(M) && !isX(m)) || (isX(m) && p && !isX(p))) return word;
  const xm = isX(M) || isX(m);
  if (!xm && !isX(p)) return word;
  if (isX(M)) return op === '<' || op === '>' ? '<0.0.0-0' : '*';
  if (op && op !== '=') {
    // `>1` is `>=2.0.0`, `<=1.2` is `<1.3.0-0`: the x's place rounds up past the whole partial version.
    const up = op === '>' || op === '<=';
    const v = xm ? `${up ? +M + 1 : M}.0.0` : `${M}.${up ? +m! + 1 : m}.0`;
    return op[0] === '>' ? `>=${v}` : `<${v}-0`;
  }
  return xm ? `>=${M}.0.0 <${+M + 1}.0.0-0` : `>=${M}.${m}.0 <${M}.${+m! + 1}.0-0`;
}

const eachWord = (s: string, rewrite: (word: string) => string): string => s.trim().split(/\s+/).map(rewrite).join(' ');

/** One space-separated word of a set as comparators: a tilde or caret, then x-ranges, then a first `*` dropped. */
const expand = (word: string): string => eachWord(eachWord(word, bounded), xRange).trim().replace(/[<>]?=? ?\*/, '');

/** One `||` alternative as comparators that must all hold, or null when one is not a comparator. */
function parseSet(part: string): Comparator[] | null {
  const text = trimOperators(part.replace(BUILD, '').replace(HYPHEN, hyphen)).replace(/~>? /g, '~').replace(/\^ /g, '^');
  const set: Comparator[] = [];
  for (const word of text.split(' ').map(expand).join(' ').split(/\s+/)) {
    if (word === '' || word === '>=0.0.0') set.push(null);
    else {
      const [, op, rest] = /^([<>]?=?)(.*)/.exec(word)!;
      const v = parseVersion(rest!);
      if (!v) return null;
      set.push({ op: op === '=' ? '' : op!, v });
    }
  }
  return set;
}

/** The alternatives of `range`, or null when node-semver would refuse it. */
function parseRange(range: string): Comparator[][] | null {
  const sets: Comparator[][] = [];
  for (const part of range.trim().replace(/\s+/g, ' ').split('||')) {
    const set = parseSet(part.trim());
    if (!set) return null;
    sets.push(set);
  }
  // An alternative that allows any version stands for the whole range, and so lets no prerelease in.
  return sets.some((set) => set.every((c) => !c)) ? [[null]] : sets;
}

const holds = ({ op, v }: { op: string; v: Version }, version: Version): boolean => {
  const d = comparePrecedence(version, v);
  return d ? op[0] === (d < 0 ? '<' : '>') : op !== '<' && op !== '>';
};

/**
 * `range` as a test of versions, true where node-semver's `satisfies(version, range)` is: some alternative holds, and a
 * prerelease passes only where that alternative names a prerelease of the same major.minor.patch. Null when
 * node-semver's `validRange` refuses the range.
 */
export function compileRange(range: string): ((version: string) => boolean) | null {
  const sets = parseRange(range);
  if (!sets) return null;
  return (version) => {
    const v = parseVersion(version);
    if (!v) return false;
    const sameRelease = (c: Comparator): boolean =>
      !!c?.v.prerelease.length && c.v.major === v.major && c.v.minor === v.minor && c.v.patch === v.patch;
    return sets.some((set) => set.every((c) => !c || holds(c, v)) && (!v.prerelease.length || set.some(sameRelease)));
  };
}

/** True when node-semver's `validRange` accepts `range`. */
export function isValidRange(range: string): boolean {
  return parseRange(range) !== null;
}
