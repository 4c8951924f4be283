/** SemVer ranges and versions without node-semver, held to node-semver itself (non-loose, prereleases not included). */
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { compileRange, isValidRange } from '@aso-registry/core/format/version-range';
import { bumpVersion, compareVersions, isPrerelease, parseVersion, versionProblem, MAX_VERSION_LENGTH } from '@aso-registry/core/format/version';

const satisfies = (version: string, range: string): boolean => compileRange(range)?.(version) ?? false;

/** `[range, versions it admits, versions it refuses]`. */
type Case = [string, string[], string[]];

function check(cases: Case[]): void {
  for (const [range, admitted, refused] of cases) {
    expect(isValidRange(range), range).toBe(true);
    for (const v of admitted) expect(satisfies(v, range), `${v} in ${range}`).toBe(true);
    for (const v of refused) expect(satisfies(v, range), `${v} not in ${range}`).toBe(false);
  }
}

describe('version ranges, rule by rule', () => {
  it('comparators: <, <=, >, >=, = and a bare version, with a leading v or = and spaces after the operator', () => {
    check([
      ['>1.2.3', ['1.2.4', '2.0.0'], ['1.2.3', '1.0.0']],
      ['>=1.2.3', ['1.2.3', '1.3.0'], ['1.2.2']],
      ['<1.2.3', ['1.2.2', '0.0.1'], ['1.2.3']],
      ['<=1.2.3', ['1.2.3', '1.0.0'], ['1.2.4']],
      ['=1.2.3', ['1.2.3', 'v1.2.3', ' 1.2.3 ', '1.2.3+build'], ['1.2.4']],
      ['1.2.3', ['1.2.3'], ['1.2.4']],
      ['v1.2.3', ['1.2.3'], ['1.2.4']],
      ['>= 1.2.3', ['1.2.3'], ['1.2.2']],
      ['>=v1.2.3 <  2.0.0', ['1.9.9'], ['2.0.0']],
      ['\t>=1.2.3\n<2\u00a0', ['1.5.0'], ['2.0.0']],
    ]);
  });

  it('build metadata is ignored in ranges and versions', () => {
    check([
      ['1.2.3+build.7', ['1.2.3', '1.2.3+other'], ['1.2.4']],
      ['^1.2.3+b', ['1.9.0+x'], ['2.0.0']],
    ]);
  });

  it('||: any alternative; empty alternatives and the empty range allow any release', () => {
    check([
      ['1.2.3 || 2.x', ['1.2.3', '2.5.0'], ['1.2.4', '3.0.0']],
      ['', ['0.0.0', '99.0.0'], ['1.0.0-beta']],
      ['||', ['1.0.0'], []],
      ['1.0.0 ||', ['5.0.0'], []],
    ]);
  });

  it('hyphen ranges: partial ends fill in, a full end is inclusive', () => {
    check([
      ['1.2.3 - 2.3.4', ['1.2.3', '2.3.4'], ['1.2.2', '2.3.5']],
      ['1.2 - 2.3.4', ['1.2.0'], ['1.1.9']],
      ['1.2.3 - 2.3', ['2.3.9'], ['2.4.0']],
      ['1.2.3 - 2', ['2.9.9'], ['3.0.0']],
      ['* - 2', ['0.0.0', '2.1.0'], ['3.0.0']],
      ['1.0.0 - 2.0.0-beta', ['2.0.0-alpha'], ['2.0.0']],
    ]);
  });

  it('x-ranges: x, X, * and missing parts; with an operator they round to the edge of their place', () => {
    check([
      ['*', ['0.0.0', '10.2.3'], ['1.0.0-rc.1']],
      ['1.x', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.9']],
      ['1.2.X', ['1.2.9'], ['1.3.0']],
      ['1', ['1.5.5'], ['2.0.0']],
      ['>1.2', ['1.3.0'], ['1.2.9']],
      ['>=1.x', ['1.0.0'], ['0.9.9']],
      ['<1.2', ['1.1.9'], ['1.2.0']],
      ['<=1.x', ['1.9.9'], ['2.0.0']],
      ['=1.x', ['1.2.0'], ['2.0.0']],
      ['>*', [], ['0.0.0', '1.0.0']],
    ]);
  });

  it('tilde: patch-level changes when a minor is given, minor-level otherwise; ~> is the same', () => {
    check([
      ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0', '1.2.2']],
      ['~1.2', ['1.2.0', '1.2.9'], ['1.3.0']],
      ['~1', ['1.9.0'], ['2.0.0']],
      ['~> 1.2.3', ['1.2.5'], ['1.3.0']],
      ['~ 1.2.3', ['1.2.5'], ['1.3.0']],
      ['~0.2.3', ['0.2.9'], ['0.3.0']],
    ]);
  });

  it('caret: no change to the first non-zero part', () => {
    check([
      ['^1.2.3', ['1.2.3', '1.9.9'], ['2.0.0', '1.2.2']],
      ['^0.2.3', ['0.2.9'], ['0.3.0']],
      ['^0.0.3', ['0.0.3'], ['0.0.4']],
      ['^0.0', ['0.0.9'], ['0.1.0']],
      ['^0.x', ['0.9.0'], ['1.0.0']],
      ['^1.x', ['1.9.0'], ['2.0.0']],
      ['^ 1.2.3', ['1.5.0'], ['2.0.0']],
      ['^*', ['3.0.0'], ['3.0.0-a']],
    ]);
  });

  it('a prerelease satisfies only a set with a prerelease comparator of the same major.minor.patch', () => {
    check([
      ['^1.2.3-beta.2', ['1.2.3-beta.2', '1.2.3-beta.10', '1.2.3', '1.5.0'], ['1.2.3-beta.1', '1.2.4-alpha', '1.3.0-rc.1']],
      ['>=1.0.0-rc.1 <2.0.0', ['1.0.0-rc.2', '1.5.0'], ['1.5.0-rc.1', '2.0.0-rc.1']],
      ['~1.2.3-0', ['1.2.3-alpha'], ['1.2.4-alpha']],
      ['>1.0.0', ['1.0.1'], ['1.0.1-beta']],
    ]);
  });

  it('an alternative that allows any version swallows the others, prereleases included', () => {
    check([
      ['1.0.0-beta || *', ['1.0.0'], ['1.0.0-beta']],
      ['>=0.0.0 || 1.0.0-beta', [], ['1.0.0-beta']],
      ['>=v0.0.0 || 1.0.0-beta', ['1.0.0-beta'], []],
    ]);
  });

  it('the null set <0.0.0-0 allows nothing, and <* or >x write it', () => {
    check([
      ['<0.0.0-0', [], ['0.0.0', '0.0.0-0']],
      ['<*', [], ['0.0.0']],
      ['>x || 1.0.0', ['1.0.0'], ['0.0.0']],
    ]);
  });

  it('refuses what is not a range, and a version that is not a version satisfies nothing', () => {
    for (const range of ['>=>1', '1.2.3.4', '^01.2.3', '1.2.3 -', '- 1.2.3', 'x.1', '1.x.3', '~', '^', 'a', '1.2.3-', '1.2.3-01', '>=1 - 2', '^9007199254740991.0.0', '1 - =2.0.0']) {
      expect(isValidRange(range), range).toBe(false);
      expect(compileRange(range), range).toBeNull();
    }
    for (const version of ['', '1.2', '01.2.3', '1.2.3.4', 'x', '1.2.3-', `1.2.3-${'a'.repeat(251)}`]) expect(satisfies(version, '*'), version).toBe(false);
  });

  it('reads node-semver quirks as it does: a stray * is dropped, a full upper bound keeps its prefix', () => {
    check([
      ['1.2.3*', ['1.2.3'], ['1.2.4']],
      ['>=v=1.2', ['1.2.0'], ['1.1.0']],
      ['1 - =2.0.0-beta', ['2.0.0-alpha'], ['2.0.0']],
    ]);
    expect(isValidRange('>=v=1.2.3')).toBe(false);
  });

  it('agrees with node-semver on long runs of one pattern', () => {
    for (const text of ['0'.repeat(2_000), 'v'.repeat(2_000), `${'1.'.repeat(1_000)}x`, '< '.repeat(1_000), '1.2.3-a'.repeat(300), '>=1.2.3 '.repeat(300)]) {
      expect(isValidRange(text)).toBe(semver.validRange(text) !== null);
    }
  });
});

/** A small seeded generator (mulberry32), so every run draws the same cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(0x5e3e7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const chance = (p: number): boolean => next() < p;

const NUMBERS = ['0', '1', '2', '3', '10', '0', '1', '2'];
const PRERELEASES = ['0', '1', 'alpha', 'alpha.1', 'beta', 'beta.2', 'beta.11', 'rc.1', '0.0', 'a-b', '1a', 'x', 'v', '01'];
const BUILDS = ['build', '001', 'b.7', 'x-y'];

function version(): string {
  let v = `${pick(NUMBERS)}.${pick(NUMBERS)}.${pick(NUMBERS)}`;
  if (chance(0.4)) v += `-${pick(PRERELEASES)}`;
  if (chance(0.15)) v += `+${pick(BUILDS)}`;
  return v;
}

/** A partial or full version as ranges write them: x, X, * in any place, a prefix, a prerelease, a build. */
function operand(): string {
  const part = (): string => (chance(0.15) ? pick(['x', 'X', '*']) : pick(NUMBERS));
  const parts = [part()];
  if (chance(0.8)) parts.push(part());
  if (parts.length === 2 && chance(0.75)) parts.push(part());
  let v = parts.join('.');
  if (parts.length === 3 && chance(0.3)) v += `-${pick(PRERELEASES)}`;
  if (chance(0.08)) v += `+${pick(BUILDS)}`;
  return `${pick(['', '', '', '', '', '', 'v', '=', 'v=', '= ', 'v '])}${v}`;
}

const OPERATORS = ['', '', '', '<', '<=', '>', '>=', '=', '~', '~>', '^', '> ', '>= ', '~ ', '~> ', '^ '];
const NOT_OPERATORS = ['>=>', '=>', '<>', '~^', '< = ', '>>'];
const SPACE = [' ', ' ', ' ', '  ', '\t', ' \n ', '\u00a0'];

function comparatorSet(): string {
  if (chance(0.15)) return `${operand()}${pick(SPACE)}-${pick(SPACE)}${operand()}`;
  const words: string[] = [];
  const n = pick([1, 1, 2, 2, 3]);
  for (let i = 0; i < n; i++) words.push(`${chance(0.04) ? pick(NOT_OPERATORS) : pick(OPERATORS)}${operand()}`);
  return words.join(pick(SPACE));
}

function range(): string {
  const sets = [comparatorSet()];
  while (chance(0.25)) sets.push(chance(0.1) ? '' : comparatorSet());
  return `${chance(0.1) ? ' ' : ''}${sets.join(pick(['||', ' || ', '  ||', '|| ']))}${chance(0.1) ? ' ' : ''}`;
}

/** Short strings of range fragments, mostly not ranges, for the odd corners of the grammar. */
function soup(): string {
  const bits = ['1', '2', '0', '01', '10', '.', '.', '-', ' - ', '+', '+b', 'x', 'X', '*', 'v', 'V', '=', '<', '>', '~', '^', ' ', ' ', '\t', '||', 'beta', 'a', '1.2.3', '1.2', '-rc.1', '0.0.0'];
  let s = '';
  const n = 1 + Math.floor(next() * 8);
  for (let i = 0; i < n; i++) s += pick(bits);
  return s;
}

const RANGES = [
  ...Array.from({ length: 1400 }, range),
  ...Array.from({ length: 600 }, soup),
  '*', 'x', '', ' ', '>=0.0.0', '>= 0.0.0', '>=0.0.0-0', '>=0.0.0 <1', '>=>1', '1.2.3.4', '^01.2.3', '1.2.3 -', '|| ||', ' || 1', '1.2.3 - 2 - 3', '1.2.3-v = 2', '1.2.3v = 2', '3 - 1\t+b||~>1.2.3', '1  - 1.2.3 +b', '+b 1 - 2', '1 +b +c - 2', '>= +b 1', '00001', '1.2.3-0 = 1',
  '^9007199254740991.0.0', '~9007199254740990.9007199254740991', '>9007199254740991', '9007199254740991.x', '<=9007199254740991.9007199254740991',
  '^9007199254740992.0.0', '99999999999999999999.x', '1 - 9007199254740991', '1.2.3 - 9007199254740991.x', '>=1.2.3-9007199254740993',
];
const VERSIONS = [
  ...new Set([
    ...Array.from({ length: 200 }, version),
    '0.0.0', '0.0.0-0', '9007199254740991.0.0', '9007199254740992.0.0', '1.2.3-9007199254740991', '1.2.3-9007199254740993', '1.2.3-99999999999999999999',
    '0.0.0-00', 'v1.2.3', ' 1.2.3 ', '=1.2.3', '1.2', '01.2.3', '1.2.3.4', '', 'x', `1.0.0-${'a'.repeat(250)}`, `1.0.0-${'a'.repeat(251)}`,
  ]),
];

/** Up to `limit` lines of `mismatches`, with their count, for a readable failure. */
function report(mismatches: string[], limit = 12): string[] {
  return mismatches.length ? [`${mismatches.length} mismatches with node-semver, the first:`, ...mismatches.slice(0, limit)] : [];
}

describe('against node-semver', () => {
  it(`agrees on validity and satisfies for ${RANGES.length} ranges x ${VERSIONS.length} versions`, () => {
    const parsed = VERSIONS.map((v) => ({ text: v, semver: semver.parse(v) }));
    const mismatches: string[] = [];
    let valid = 0;
    const stackTraceLimit = Error.stackTraceLimit;
    // node-semver refuses a range by throwing; the stacks of thousands of throws would cost most of the test's time.
    Error.stackTraceLimit = 0;
    const theirRanges = RANGES.map((text) => {
      try {
        return new semver.Range(text);
      } catch {
        return null;
      }
    });
    Error.stackTraceLimit = stackTraceLimit;
    for (const [i, text] of RANGES.entries()) {
      const theirs = theirRanges[i]!;
      const ours = compileRange(text);
      if ((theirs === null) !== (ours === null)) {
        mismatches.push(`${JSON.stringify(text)}: node-semver ${theirs ? `reads it as ${JSON.stringify(theirs.range)}` : 'refuses it'}, ours ${ours ? 'accepts' : 'refuses'} it`);
        continue;
      }
      if (!theirs || !ours) continue;
      valid++;
      for (const v of parsed) {
        const expected = v.semver ? theirs.test(v.semver) : false;
        if (ours(v.text) !== expected) mismatches.push(`satisfies(${JSON.stringify(v.text)}, ${JSON.stringify(text)}): node-semver ${expected} (${JSON.stringify(theirs.range)}), ours ${!expected}`);
      }
    }
    expect(report(mismatches)).toEqual([]);
    // The draw covers both kinds of range.
    expect(valid).toBeGreaterThan(700);
    expect(RANGES.length - valid).toBeGreaterThan(700);
    // satisfies() itself, on a sample, as the one call node-semver's users make.
    for (let i = 0; i < 200; i++) {
      const [v, r] = [pick(VERSIONS), pick(RANGES)];
      expect(satisfies(v, r), `satisfies(${JSON.stringify(v)}, ${JSON.stringify(r)})`).toBe(semver.satisfies(v, r));
    }
  });

  it(`agrees on parse, compare, inc and prerelease for ${VERSIONS.length} versions`, () => {
    const mismatches: string[] = [];
    for (const a of VERSIONS) {
      const theirs = semver.parse(a);
      const ours = parseVersion(a);
      const shape = (v: { major: number; minor: number; patch: number; prerelease: readonly (string | number)[]; build: readonly string[] } | null) =>
        v && JSON.stringify([v.major, v.minor, v.patch, v.prerelease.map(String), v.build]);
      if (shape(theirs) !== shape(ours)) mismatches.push(`parse(${JSON.stringify(a)}): node-semver ${shape(theirs)}, ours ${shape(ours)}`);
      if (isPrerelease(a) !== (semver.prerelease(a) !== null)) mismatches.push(`prerelease(${JSON.stringify(a)})`);
      for (const bump of ['major', 'minor', 'patch'] as const) {
        let ourBump: string | null = null;
        try {
          ourBump = bumpVersion(a, bump);
        } catch {
          // refused, as inc's null
        }
        if (ourBump !== semver.inc(a, bump)) mismatches.push(`inc(${JSON.stringify(a)}, ${bump}): node-semver ${semver.inc(a, bump)}, ours ${ourBump}`);
      }
      const exact = a.length <= MAX_VERSION_LENGTH && theirs !== null && `${theirs.version}${theirs.build.length ? `+${theirs.build.join('.')}` : ''}` === a;
      if ((versionProblem(a) === null) !== exact) mismatches.push(`versionProblem(${JSON.stringify(a)}): ${versionProblem(a)}`);
      if (!theirs) continue;
      for (const b of VERSIONS) {
        if (!semver.parse(b)) continue;
        const expected = semver.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
        if (compareVersions(a, b) !== expected) mismatches.push(`compare(${JSON.stringify(a)}, ${JSON.stringify(b)}): node-semver ${expected}, ours ${compareVersions(a, b)}`);
      }
    }
    expect(report(mismatches)).toEqual([]);
    expect(() => compareVersions('1.0', '1.0.0')).toThrow('Invalid Version: 1.0');
  });

  it('bumps a prerelease to its own release as node-semver does, and drops build metadata', () => {
    expect(bumpVersion('1.0.0-beta', 'major')).toBe('1.0.0');
    expect(bumpVersion('1.2.0-rc.1', 'minor')).toBe('1.2.0');
    expect(bumpVersion('1.2.3-rc.1', 'patch')).toBe('1.2.3');
    expect(bumpVersion('1.2.3-rc.1', 'minor')).toBe('1.3.0');
    expect(bumpVersion('1.2.3+build.5', 'patch')).toBe('1.2.4');
  });

  it('orders prerelease identifiers as SemVer 2.0.0 says: numbers as numbers, below alphanumerics', () => {
    expect(compareVersions('1.0.0-2', '1.0.0-10')).toBe(-1);
    expect(compareVersions('1.0.0-10', '1.0.0-a')).toBe(-1);
    expect(compareVersions('1.0.0-beta.2', '1.0.0-beta.11')).toBe(-1);
    expect(compareVersions('1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(versionProblem('9007199254740992.0.0')).toBe('"9007199254740992.0.0" has a numeric part above 9007199254740991, which versions here cannot order');
  });
});
