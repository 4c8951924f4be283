import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureHashThroughput } from '../../src/bench/hash-throughput.ts';
import { sha256File } from '../../src/io/hash-file.ts';

describe('measureHashThroughput', () => {
  it('times the hasher on a file of the size asked, as often as asked, against hashing in memory, and removes the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aso-hash-throughput-'));
    try {
      const seen: Array<{ length: number; hash: string }> = [];
      const result = await measureHashThroughput(dir, 3 * 1024 * 1024 + 5, {
        runs: 3,
        hashFile: async (path) => {
          const bytes = await readFile(path);
          seen.push({ length: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') });
          return sha256File(path);
        },
      });
      expect(seen).toHaveLength(3);
      expect(seen.every((s) => s.length === 3 * 1024 * 1024 + 5 && s.hash === seen[0]!.hash)).toBe(true);
      expect(result.bytes).toBe(3 * 1024 * 1024 + 5);
      expect(result.ratio).toBeCloseTo(result.fileRate / result.memoryRate, 9);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
