import { describe, expect, it } from 'vitest';
import { latestNotRetracted, latestRecord, latestVersion, resolveVersion } from '@aso-registry/core/format/latest';
import { isPrerelease } from '@aso-registry/core/format/version';

describe('latestVersion', () => {
  it('prefers the highest non-prerelease', () => {
    expect(latestVersion(['1.0.0', '2.0.0-rc.1', '1.1.0'])).toBe('1.1.0');
    expect(isPrerelease('2.0.0-rc.1')).toBe(true);
    expect(isPrerelease('2.0.0')).toBe(false);
  });

  it('falls back to the highest prerelease, then to undefined', () => {
    expect(latestVersion(['1.0.0-alpha', '1.0.0-beta'])).toBe('1.0.0-beta');
    expect(latestVersion([])).toBeUndefined();
  });
});

describe('resolveVersion', () => {
  const versions = ['1.0.0', '1.2.0', '1.10.0', '2.0.0-rc.1'];
  it('resolves latest, exact versions and ranges', () => {
    expect(resolveVersion(versions, 'latest')).toBe('1.10.0');
    expect(resolveVersion(versions, '1.2.0')).toBe('1.2.0');
    expect(resolveVersion(versions, '^1.0.0')).toBe('1.10.0');
    expect(resolveVersion(versions, '~1.2')).toBe('1.2.0');
  });

  it('is undefined when nothing matches or the range is not one', () => {
    expect(resolveVersion(versions, '^3.0.0')).toBeUndefined();
    expect(resolveVersion(versions, 'not a range')).toBeUndefined();
  });
});

describe('latestNotRetracted', () => {
  it('skips retracted versions, and falls back to the latest of all when every version is retracted', () => {
    const versions = ['1.0.0', '1.1.0', '2.0.0-rc.1'];
    expect(latestNotRetracted(versions, (v) => v === '1.1.0')).toBe('1.0.0');
    expect(latestNotRetracted(versions, () => true)).toBe('1.1.0');
    expect(latestNotRetracted([], () => false)).toBeUndefined();
  });
});

describe('latestRecord', () => {
  const record = (version: string) => ({ manifest: { version } });
  it('finds the record of the latest version, else the first (newest) record', () => {
    const versions = [record('2.0.0'), record('1.0.0')];
    expect(latestRecord({ latest: '1.0.0', versions })).toBe(versions[1]);
    expect(latestRecord({ latest: '9.9.9', versions })).toBe(versions[0]);
  });
});
