import { describe, expect, it } from 'vitest';
import { formatBytes } from '@aso-registry/core/documents/format-bytes';

describe('formatBytes', () => {
  it('writes bytes below 1,000 as they are', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1)).toBe('1 B');
    expect(formatBytes(999)).toBe('999 B');
  });

  it('writes larger sizes in units of 1,000 with one decimal below 100', () => {
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(4500)).toBe('4.5 KB');
    expect(formatBytes(5381)).toBe('5.4 KB');
    expect(formatBytes(55_684)).toBe('55.7 KB');
    expect(formatBytes(123_456)).toBe('123 KB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(3_000_000_000)).toBe('3 GB');
    expect(formatBytes(2e15)).toBe('2,000 TB');
  });

  it('moves to the next unit when rounding reaches 1,000', () => {
    expect(formatBytes(999_499)).toBe('999 KB');
    expect(formatBytes(999_500)).toBe('1 MB');
    expect(formatBytes(99_960)).toBe('100 KB');
  });

  it('prints what is not a size as it is', () => {
    expect(formatBytes(-1)).toBe('-1 B');
    expect(formatBytes(Number.NaN)).toBe('NaN B');
  });
});
