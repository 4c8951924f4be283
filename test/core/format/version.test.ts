import { describe, expect, it } from 'vitest';
import {
  bumpVersion,
  compareVersions,
  isExactVersion,
  sortHistory,
  MAX_VERSION_LENGTH,
  versionProblem,
} from '@aso-registry/core/format/version';

describe('versionProblem', () => {
  it('is null for an exact version, build metadata included', () => {
    expect(versionProblem('1.0.0+build.5')).toBeNull();
    expect(isExactVersion('1.0.0-rc.1')).toBe(true);
  });

  it('explains a string that is not a version', () => {
    expect(versionProblem('1.0')).toBe('"1.0" is not a Semantic Versioning 2.0.0 version (MAJOR.MINOR.PATCH[-prerelease][+build])');
    expect(isExactVersion('1.0')).toBe(false);
  });

  it('refuses a valid SemVer longer than a version may be, since it names files of the site', () => {
    const atLimit = `1.0.0-${'a'.repeat(MAX_VERSION_LENGTH - 6)}`;
    expect(versionProblem(atLimit)).toBeNull();
    expect(versionProblem(`${atLimit}b`)).toBe(`is ${MAX_VERSION_LENGTH + 1} characters long; a version may have at most ${MAX_VERSION_LENGTH} (it names a folder and files of the site)`);
  });

  it('suggests the exact form of a loose one', () => {
    expect(versionProblem('v1.2.3')).toBe('"v1.2.3" is not exactly a Semantic Versioning 2.0.0 version (did you mean "1.2.3"?)');
  });
});

describe('compareVersions', () => {
  it('orders by SemVer precedence, the example chain of semver.org', () => {
    const chain = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    expect([...chain].reverse().sort(compareVersions)).toEqual(chain);
  });

  it('breaks precedence ties by build metadata so the order is total', () => {
    expect(compareVersions('1.0.0+a', '1.0.0+b')).toBe(-1);
    expect(compareVersions('1.0.0+b', '1.0.0+a')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
  });
});

describe('bumpVersion', () => {
  it('bumps major, minor and patch', () => {
    expect(bumpVersion('1.2.3', 'major')).toBe('2.0.0');
    expect(bumpVersion('1.2.3', 'minor')).toBe('1.3.0');
    expect(bumpVersion('1.2.3', 'patch')).toBe('1.2.4');
  });

  it('throws on a string that is not a version', () => {
    expect(() => bumpVersion('one', 'patch')).toThrow('cannot patch-bump "one"');
  });
});

describe('sortHistory', () => {
  it('lists newest first, ties by SemVer precedence', () => {
    const entries = [
      { version: '1.0.0', createdAt: '2025-01-01T00:00:00Z' },
      { version: '1.1.0', createdAt: '2025-03-01T00:00:00Z' },
      { version: '1.0.1', createdAt: '2025-03-01T00:00:00Z' },
      { version: '0.9.0', createdAt: '2025-02-01T00:00:00+10:00' },
    ];
    expect(sortHistory(entries).map((e) => e.version)).toEqual(['1.1.0', '1.0.1', '0.9.0', '1.0.0']);
  });

  it('compares instants, not strings, across offsets', () => {
    const entries = [
      { version: '1.0.0', createdAt: '2025-01-01T10:00:00+02:00' },
      { version: '2.0.0', createdAt: '2025-01-01T09:00:00Z' },
    ];
    expect(sortHistory(entries).map((e) => e.version)).toEqual(['2.0.0', '1.0.0']);
  });
});
