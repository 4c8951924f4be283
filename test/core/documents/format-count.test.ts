import { describe, expect, it } from 'vitest';
import { formatCount } from '@aso-registry/core/documents/format-count';

describe('formatCount', () => {
  it('writes thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});
