import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File } from '../../src/io/hash-file.ts';

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
