import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureFileCreation } from '../../src/bench/file-creation.ts';

describe('measureFileCreation', () => {
  it('creates the files it is asked for, reports a rate, and leaves nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aso-file-creation-'));
    try {
      const rate = await measureFileCreation(dir, 250);
      expect(rate.files).toBe(250);
      expect(rate.perSecond).toBeCloseTo(250 / (rate.ms / 1000), 6);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
