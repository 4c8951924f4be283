import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, hexToSri, isSri, sriFromDigest, sriOf, sriToHex, toBase64, toHex } from '@aso-registry/core/format/sri';

// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
const ABC_HEX = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const ABC_SRI = 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=';
const EMPTY_SRI = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

describe('sri', () => {
  it('hashes bytes to the known SHA-256 vectors', async () => {
    expect(await sriOf(new TextEncoder().encode('abc'))).toBe(ABC_SRI);
    expect(await sriOf(new Uint8Array())).toBe(EMPTY_SRI);
  });

  it('agrees with node:crypto on arbitrary bytes', async () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(await sriOf(bytes)).toBe(`sha256-${createHash('sha256').update(bytes).digest('base64')}`);
  });

  it('converts between hex and SRI', () => {
    expect(hexToSri(ABC_HEX)).toBe(ABC_SRI);
    expect(sriToHex(ABC_SRI)).toBe(ABC_HEX);
  });

  it.each([
    [42, false],
    [43, true],
    [44, false],
  ])('isSri with %i base64 characters: %s', (n, ok) => {
    expect(isSri(`sha256-${'A'.repeat(n)}=`)).toBe(ok);
  });

  it('refuses other algorithms and a missing padding', () => {
    expect(isSri(ABC_SRI.replace('sha256', 'sha384'))).toBe(false);
    expect(isSri(ABC_SRI.slice(0, -1))).toBe(false);
  });

  it('says what is wrong with bad input', () => {
    expect(() => sriToHex('sha256-abc=')).toThrow('"sha256-abc=" is not a sha256-<base64> integrity string');
    expect(() => hexToSri('ABC')).toThrow('"ABC" is not a 64-character lowercase hex SHA-256 digest');
    expect(() => sriFromDigest(new Uint8Array(31))).toThrow('a SHA-256 digest has 32 bytes, not 31');
  });

  it('round-trips base64 and hex of every byte value', () => {
    const all = new Uint8Array(256).map((_, i) => i);
    expect(fromBase64(toBase64(all))).toEqual(all);
    expect(toBase64(all)).toBe(Buffer.from(all).toString('base64'));
    expect(toHex(all)).toBe(Buffer.from(all).toString('hex'));
  });
});
