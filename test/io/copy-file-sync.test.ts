/** A synchronous copy keeps the bytes and the source's times, whichever way it copies. */
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWithTimes, SMALL_COPY_BYTES } from '../../src/io/copy-file-sync.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-copy-file-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('copyWithTimes', () => {
  for (const size of [0, 7, SMALL_COPY_BYTES - 1, SMALL_COPY_BYTES, 3 * SMALL_COPY_BYTES + 5]) {
    it(`copies a file of ${size} bytes with its modification time`, async () => {
      const from = join(work, `from-${size}`);
      const to = join(work, `to-${size}`);
      const bytes = Buffer.alloc(size, size % 251);
      await writeFile(from, bytes);
      await utimes(from, new Date('2024-01-02T03:04:05.678Z'), new Date('2025-06-07T08:09:10.123Z'));
      copyWithTimes(from, to, statSync(from));
      expect((await readFile(to)).equals(bytes)).toBe(true);
      expect(Math.abs((await stat(to)).mtimeMs - Date.parse('2025-06-07T08:09:10.123Z'))).toBeLessThan(1);
    });
  }

  it('names the file when the source is not there', () => {
    const missing = join(work, 'missing');
    expect(() => copyWithTimes(missing, join(work, 'nowhere'), statSync(join(work, 'from-7')))).toThrow(missing);
  });
});
