import { describe, expect, it } from 'vitest';
import { OBJECT_ID_PATTERN, objectIdProblem, parseVersionRef } from '@aso-registry/core/format/object-id';

describe('objectIdProblem', () => {
  it('accepts lowercase ids of 3 to 80 characters with inner dots, dashes and underscores', () => {
    for (const id of ['oak', 'oak-chair', 'a.b_c-9', '3d-print', 'x'.repeat(80)]) expect(objectIdProblem(id), id).toBeNull();
  });

  it('says how long an id must be', () => {
    expect(objectIdProblem('ab')).toBe('must have 3 to 80 characters, not 2');
    expect(objectIdProblem('x'.repeat(81))).toBe('must have 3 to 80 characters, not 81');
  });

  it('says which characters an id may hold', () => {
    for (const id of ['Oak-chair', 'oak chair', '-oak', 'oak.', 'oak/chair', 'chaise-longue-é']) {
      expect(objectIdProblem(id), id).toBe('must be lowercase letters, digits, ".", "_" or "-", starting and ending with a letter or digit');
    }
  });

  it('exports the pattern it checks with', () => {
    const re = new RegExp(OBJECT_ID_PATTERN);
    expect(re.test('oak-chair')).toBe(true);
    expect(re.test('Oak')).toBe(false);
  });
});

describe('parseVersionRef', () => {
  it('splits <id>@<version>', () => {
    expect(parseVersionRef('oak-chair@1.0.0')).toEqual({ id: 'oak-chair', version: '1.0.0' });
    expect(parseVersionRef('oak-chair@2.0.0-rc.1+build.5')).toEqual({ id: 'oak-chair', version: '2.0.0-rc.1+build.5' });
  });

  it('refuses a ref without an id or an @', () => {
    const notRef = (ref: string) => `"${ref}" is not <id>@<version> (an id like oak-chair, e.g. oak-chair@1.0.0)`;
    expect(parseVersionRef('oak-chair')).toBe(notRef('oak-chair'));
    expect(parseVersionRef('@1.0.0')).toBe(notRef('@1.0.0'));
    expect(parseVersionRef('Oak@1.0.0')).toBe(notRef('Oak@1.0.0'));
    expect(parseVersionRef('oak@chair@1.0.0')).toBe(notRef('oak@chair@1.0.0'));
  });

  it('refuses a version that is not exact', () => {
    expect(parseVersionRef('oak-chair@1.0')).toBe('"oak-chair@1.0": "1.0" is not an exact semantic version');
    expect(parseVersionRef('oak-chair@^1.0.0')).toBe('"oak-chair@^1.0.0": "^1.0.0" is not an exact semantic version');
    expect(parseVersionRef('oak-chair@')).toBe('"oak-chair@": "" is not an exact semantic version');
  });
});
