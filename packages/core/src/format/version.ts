// One module per function, so that a bundle holds only the parts of semver it uses.
import compare from 'semver/functions/compare.js';
import inc from 'semver/functions/inc.js';
import parse from 'semver/functions/parse.js';
import prerelease from 'semver/functions/prerelease.js';
import type SemVer from 'semver/classes/semver.js';

/** The regular expression of semver.org for a SemVer 2.0.0 string (also the schema's pattern). */
const SEMVER_REGEX =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

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
  const parsed = parse(input, { loose: false });
  if (!parsed && SEMVER_REGEX.test(input)) {
    return `"${input}" has a numeric part above ${Number.MAX_SAFE_INTEGER}, which versions here cannot order`;
  }
  if (!parsed) return `"${input}" is not a Semantic Versioning 2.0.0 version (MAJOR.MINOR.PATCH[-prerelease][+build])`;
  const exact = formatVersion(parsed);
  if (exact !== input) return `"${input}" is not exactly a Semantic Versioning 2.0.0 version (did you mean "${exact}"?)`;
  return null;
}

/** True when `input` is exactly a SemVer 2.0.0 string, build metadata included. */
export function isExactVersion(input: string): boolean {
  return versionProblem(input) === null;
}

function formatVersion(v: SemVer): string {
  return v.build.length ? `${v.version}+${v.build.join('.')}` : v.version;
}

/** Orders two exact versions by SemVer precedence, then by build metadata so the order is total. */
export function compareVersions(a: string, b: string): number {
  const byPrecedence = compare(a, b);
  if (byPrecedence !== 0) return byPrecedence;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when the version has a prerelease part. */
export function isPrerelease(version: string): boolean {
  return (prerelease(version)?.length ?? 0) > 0;
}

/** The next version after `current` for a release bump. */
export function bumpVersion(current: string, bump: 'major' | 'minor' | 'patch'): string {
  const next = inc(current, bump);
  if (!next) throw new Error(`cannot ${bump}-bump "${current}"`);
  return next;
}

/** Versions newest first: by creation time, ties by SemVer precedence. */
export function sortHistory<T extends { version: string; createdAt: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => {
    const t = Date.parse(b.createdAt) - Date.parse(a.createdAt);
    return t !== 0 ? t : compareVersions(b.version, a.version);
  });
}
