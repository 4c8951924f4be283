import { describe, expect, it } from 'vitest';
import { compareIntegrity, integrityFailure } from '@aso-registry/core/format/integrity';

const A = `sha256-${'A'.repeat(43)}=`;
const B = `sha256-${'B'.repeat(43)}=`;

describe('integrity', () => {
  it('is ok when length and hash both match', () => {
    const result = compareIntegrity({ byteLength: 10, hash: A }, { byteLength: 10, hash: A });
    expect(result).toEqual({ ok: true, byteLength: { expected: 10, actual: 10 }, hash: { expected: A, actual: A } });
    expect(integrityFailure(result)).toBeNull();
  });

  it('names the byte length first, with expected and actual', () => {
    const result = compareIntegrity({ byteLength: 10, hash: A }, { byteLength: 9, hash: B });
    expect(result.ok).toBe(false);
    expect(integrityFailure(result)).toBe('byte length mismatch: expected 10, got 9');
  });

  it('names the hash when the length matches', () => {
    expect(integrityFailure(compareIntegrity({ byteLength: 10, hash: A }, { byteLength: 10, hash: B }))).toBe(
      `hash mismatch: expected ${A}, got ${B}`,
    );
  });
});
