import { describe, expect, it } from 'vitest';
import { jsonEqual } from '@aso-registry/core/format/json-equal';

describe('jsonEqual', () => {
  it('ignores key order and compares everything else', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: '1' }, { a: 1 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({ a: { b: [true] } }, { a: { b: [false] } })).toBe(false);
  });
});
