import { describe, expect, it } from 'vitest';
import { formatLfsPointer, parseLfsPointer } from '@aso-registry/core/format/lfs-pointer';

const oid = '4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('parseLfsPointer', () => {
  it('reads the oid and size of a pointer as git lfs writes it', () => {
    const text = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12345\n`;
    expect(parseLfsPointer(bytes(text))).toEqual({ oid, size: 12345 });
    expect(formatLfsPointer({ oid, size: 12345 })).toBe(text);
  });

  it('accepts extension keys the specification allows', () => {
    const text = `version https://git-lfs.github.com/spec/v1\next-0-foo sha256:${'0'.repeat(64)}\noid sha256:${oid}\nsize 7\n`;
    expect(parseLfsPointer(bytes(text))).toEqual({ oid, size: 7 });
  });

  it('refuses what is not a pointer', () => {
    for (const text of [
      'glTF binary',
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\n`, // no size
      `version https://git-lfs.github.com/spec/v1\nsize 7\n`, // no oid
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid.toUpperCase()}\nsize 7\n`,
      `version https://git-lfs.github.com/spec/v1\noid md5:${oid}\nsize 7\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize -1\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 7`, // no final newline
      `version https://example.com/spec\noid sha256:${oid}\nsize 7\n`,
    ]) {
      expect(parseLfsPointer(bytes(text)), text).toBeNull();
    }
    expect(parseLfsPointer(new Uint8Array([0xff, 0xfe, 0x00]))).toBeNull();
    expect(parseLfsPointer(bytes(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 7\n${'x-y z\n'.repeat(200)}`))).toBeNull();
  });
});
