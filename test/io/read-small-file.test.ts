import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSmallFile } from '../../src/io/read-small-file.ts';

describe('readSmallFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-small-file-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('returns the bytes of a file up to the limit, the limit included', async () => {
    await writeFile(join(dir, 'ten'), '0123456789');
    expect((await readSmallFile(join(dir, 'ten'), 10))?.toString()).toBe('0123456789');
    await writeFile(join(dir, 'empty'), '');
    expect(await readSmallFile(join(dir, 'empty'))).toEqual(Buffer.alloc(0));
  });

  it('returns null for a file over the limit, without reading it', async () => {
    await writeFile(join(dir, 'eleven'), '0123456789a');
    expect(await readSmallFile(join(dir, 'eleven'), 10)).toBeNull();
  });

  it('names the file it cannot open', async () => {
    await expect(readSmallFile(join(dir, 'missing'))).rejects.toThrow(/ENOENT.*missing/);
  });
});
