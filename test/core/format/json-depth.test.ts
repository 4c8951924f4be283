import { describe, expect, it } from 'vitest';
import { jsonTooDeepAt } from '@aso-registry/core/format/json-depth';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('jsonTooDeepAt', () => {
  it('finds the bracket that opens the first level past the bound, the document being level 1', () => {
    expect(jsonTooDeepAt(bytes('[[[]]]'), 3)).toBeNull();
    expect(jsonTooDeepAt(bytes('[[[]]]'), 2)).toBe(2);
    expect(jsonTooDeepAt(bytes('{"a":[{"b":{}}]}'), 3)).toBe(11);
    expect(jsonTooDeepAt(bytes('[1,[2],[3],[4]]'), 2)).toBeNull();
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonTooDeepAt(bytes('["[[[[", "\\"[[[[", "\\\\", [0]]'), 2)).toBeNull();
    expect(jsonTooDeepAt(bytes('["\\\\", [[0]]]'), 2)).toBe(8);
    expect(jsonTooDeepAt(bytes('["unterminated [[[['), 1)).toBeNull();
  });

  it('scans a million levels without recursion', () => {
    const deep = bytes(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(jsonTooDeepAt(deep, 128)).toBe(128);
    expect(jsonTooDeepAt(deep, 1_000_000)).toBeNull();
  });
});
