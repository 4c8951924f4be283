import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/core/format.ts';

describe('formatBytes', () => {
  it('writes thousands separators', () => {
    expect(formatBytes(0)).toBe('0');
    expect(formatBytes(999)).toBe('999');
    expect(formatBytes(1000)).toBe('1,000');
    expect(formatBytes(1234567)).toBe('1,234,567');
  });
});
