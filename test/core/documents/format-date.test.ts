import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '@aso-registry/core/documents/format-date';

describe('formatDate', () => {
  it('writes the day in UTC with a short month name', () => {
    expect(formatDate('2025-09-10T07:45:00Z')).toBe('10 Sep 2025');
    expect(formatDate('2025-01-01T00:00:00Z')).toBe('1 Jan 2025');
  });

  it('reads the offset: the UTC day of a timestamp given in another zone', () => {
    expect(formatDate('2025-11-30T22:45:00-05:00')).toBe('1 Dec 2025');
    expect(formatDate('2025-04-03T01:00:00+02:00')).toBe('2 Apr 2025');
  });

  it('returns text that is not an RFC 3339 date as it is', () => {
    expect(formatDate('yesterday')).toBe('yesterday');
    expect(formatDate('1')).toBe('1');
    expect(formatDate('2025-13-45T00:00:00Z')).toBe('2025-13-45T00:00:00Z');
  });
});

describe('formatDateTime', () => {
  it('adds the hour and minute in UTC', () => {
    expect(formatDateTime('2025-09-10T07:45:00Z')).toBe('10 Sep 2025, 07:45 UTC');
    expect(formatDateTime('2025-11-30T07:45:00-05:00')).toBe('30 Nov 2025, 12:45 UTC');
  });

  it('returns text that is not a date as it is', () => {
    expect(formatDateTime('soon')).toBe('soon');
  });
});
