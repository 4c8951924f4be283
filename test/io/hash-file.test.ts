import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSmallFileWhole, sha256File, sriOfBytes } from '../../src/io/hash-file.ts';
import { sriOf } from '@aso-registry/core/format/sri';
import { WHOLE_FILE_BYTES } from '../../src/io/read-small-file.ts';

describe('sha256File', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-hash-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('hashes an empty file', async () => {
    await writeFile(join(dir, 'empty'), '');
    expect(await sha256File(join(dir, 'empty'))).toEqual({ byteLength: 0, hash: 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' });
  });

  it('hashes a file of several chunks like a one-shot digest', async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024 + 17).map((_, i) => (i * 7) % 251);
    await writeFile(join(dir, 'big'), bytes);
    expect(await sha256File(join(dir, 'big'))).toEqual({
      byteLength: bytes.length,
      hash: `sha256-${createHash('sha256').update(bytes).digest('base64')}`,
    });
  });

  it('names the file it cannot read', async () => {
    await expect(sha256File(join(dir, 'missing'))).rejects.toThrow(/ENOENT.*missing/);
  });
});

describe('hashSmallFileWhole', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-hash-whole-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const sri = (bytes: Uint8Array): string => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

  it('keeps the bytes it hashed when the file is small', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 253);
    await writeFile(join(dir, 'small'), bytes);
    const digest = await hashSmallFileWhole(join(dir, 'small'));
    expect({ byteLength: digest.byteLength, hash: digest.hash }).toEqual({ byteLength: bytes.length, hash: sri(bytes) });
    expect(new Uint8Array(digest.bytes!)).toEqual(bytes);
  });

  it('streams a file over the limit and keeps no bytes', async () => {
    const bytes = new Uint8Array(WHOLE_FILE_BYTES + 1).map((_, i) => (i * 13) % 251);
    await writeFile(join(dir, 'large'), bytes);
    expect(await hashSmallFileWhole(join(dir, 'large'))).toEqual({ byteLength: bytes.length, hash: sri(bytes) });
  });
});

describe('sriOfBytes', () => {
  it('gives the SRI string WebCrypto gives for the same bytes', async () => {
    for (const bytes of [new Uint8Array(), new TextEncoder().encode('{"schema":"aso/object/v0.1"}\n'), new Uint8Array(70_000).fill(7)]) {
      expect(sriOfBytes(bytes)).toBe(await sriOf(bytes));
    }
    expect(sriOfBytes(new Uint8Array())).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});
