/** SemVer 2.0.0's numeric identifier: 0, or digits without a leading zero (a regular-expression source). */
export const NUMERIC_ID = '0|[1-9]\\d*';
/** A prerelease identifier, alphanumeric tried first as node-semver does (a regular-expression source). */
export const PRERELEASE_ID = `(?:\\d*[a-zA-Z-][0-9a-zA-Z-]*|${NUMERIC_ID})`;
/** Build metadata after its `+` (a regular-expression source). */
export const BUILD_IDS = '[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*';

const SEMVER_SOURCE = `(${NUMERIC_ID})\\.(${NUMERIC_ID})\\.(${NUMERIC_ID})(?:-(${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*))?(?:\\+(${BUILD_IDS}))?$`;
/** semver.org's grammar of a SemVer 2.0.0 string (also the schema's pattern). */
const SEMVER_REGEX = /* @__PURE__ */ new RegExp(`^${SEMVER_SOURCE}`);
/** What node-semver parses (not loose): a SemVer string after an optional `v`, surrounding whitespace trimmed. */
const PARSE_REGEX = new RegExp(`^v?${SEMVER_SOURCE}`);

/** node-semver refuses a longer string before reading it. */
const MAX_PARSED_LENGTH = 256;

/** A parsed version; prerelease and build identifiers stay strings. */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
  build: string[];
}

/** `input` read as node-semver's `parse` reads it (not loose), or null when it would refuse it. */
export function parseVersion(input: string): Version | null {
  const m = input.length > MAX_PARSED_LENGTH ? null : PARSE_REGEX.exec(input.trim());
  if (!m) return null;
  const [major, minor, patch] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (Math.max(major, minor, patch) > Number.MAX_SAFE_INTEGER) return null;
  return { major, minor, patch, prerelease: m[4]?.split('.') ?? [], build: m[5]?.split('.') ?? [] };
}

const isNumeric = (id: string): boolean => /^\d+$/.test(id);

/** -1, 0 or 1: two identifiers that differ, digits-only ones as numbers and below the others (node-semver's rule). */
function compareIdentifiers(a: string, b: string): number {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an !== bn) return an ? -1 : 1;
  const x = an ? Number(a) : a;
  const y = bn ? Number(b) : b;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** -1, 0 or 1 by SemVer precedence (build metadata ignored). */
export function comparePrecedence(a: Version, b: Version): number {
  const main = Math.sign(a.major - b.major || a.minor - b.minor || a.patch - b.patch);
  if (main) return main;
  const [p, q] = [a.prerelease, b.prerelease];
  // A version without a prerelease ranks above the same version with one.
  if (!p.length || !q.length) return Math.sign(q.length - p.length);
  for (let i = 0; ; i++) {
    if (p[i] === undefined || q[i] === undefined) return p[i] === q[i] ? 0 : p[i] === undefined ? -1 : 1;
    if (p[i] !== q[i]) return compareIdentifiers(p[i]!, q[i]!);
  }
}

function parseOrThrow(input: string): Version {
  const v = parseVersion(input);
  if (!v) throw new TypeError(`Invalid Version: ${input}`);
  return v;
}

/**
 * The longest version here. A version names a folder and, with `.json`, a file of the site; file systems cap a name at
 * 255 bytes, and a version never needs more than a small part of that.
 */
export const MAX_VERSION_LENGTH = 128;

/** Why a string is not exactly a Semantic Versioning 2.0.0 version of at most `MAX_VERSION_LENGTH` characters, or null when it is. */
export function versionProblem(input: string): string | null {
  if (input.length > MAX_VERSION_LENGTH) {
    return `is ${input.length} characters long; a version may have at most ${MAX_VERSION_LENGTH} (it names a folder and files of the site)`;
  }
  const v = parseVersion(input);
  if (!v && SEMVER_REGEX.test(input)) {
    return `"${input}" has a numeric part above ${Number.MAX_SAFE_INTEGER}, which versions here cannot order`;
  }
  if (!v) return `"${input}" is not a Semantic Versioning 2.0.0 version (MAJOR.MINOR.PATCH[-prerelease][+build])`;
  const exact = formatVersion(v);
  if (exact !== input) return `"${input}" is not exactly a Semantic Versioning 2.0.0 version (did you mean "${exact}"?)`;
  return null;
}

/** True when `input` is exactly a SemVer 2.0.0 string, build metadata included. */
export function isExactVersion(input: string): boolean {
  return versionProblem(input) === null;
}

function formatVersion(v: Version): string {
  const pre = v.prerelease.length ? `-${v.prerelease.join('.')}` : '';
  return `${v.major}.${v.minor}.${v.patch}${pre}${v.build.length ? `+${v.build.join('.')}` : ''}`;
}

/** Orders two exact versions by SemVer precedence, then by build metadata so the order is total. */
export function compareVersions(a: string, b: string): number {
  const byPrecedence = comparePrecedence(parseOrThrow(a), parseOrThrow(b));
  if (byPrecedence !== 0) return byPrecedence;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when the version has a prerelease part. */
export function isPrerelease(version: string): boolean {
  return (parseVersion(version)?.prerelease.length ?? 0) > 0;
}

/**
 * The next version after `current` for a release bump, build metadata dropped. As node-semver's `inc`, a prerelease
 * bumps to its own release when that is the bump's kind: `1.0.0-beta` major is `1.0.0`, `1.2.3-rc.1` patch is `1.2.3`.
 */
export function bumpVersion(current: string, bump: 'major' | 'minor' | 'patch'): string {
  const v = parseVersion(current);
  if (!v) throw new Error(`cannot ${bump}-bump "${current}"`);
  let { major, minor, patch } = v;
  const release = !v.prerelease.length;
  if (bump === 'major') {
    if (minor || patch || release) major++;
    minor = patch = 0;
  } else if (bump === 'minor') {
    if (patch || release) minor++;
    patch = 0;
  } else if (release) patch++;
  return `${major}.${minor}.${patch}`;
}

/** Versions newest first: by creation time, ties by SemVer precedence. */
export function sortHistory<T extends { version: string; createdAt: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => {
    const t = Date.parse(b.createdAt) - Date.parse(a.createdAt);
    return t !== 0 ? t : compareVersions(b.version, a.version);
  });
}
