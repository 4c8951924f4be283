/** The bench's log figures: proof sizes follow from the tree's shape, measured on a real tree. */
import { expect, it } from 'vitest';
import { formatLogProofs, measureLogProofs } from '../../src/bench/log-proof-size.ts';

it('measures proofs, the log object, consistency proofs and tiles of a 5,000-entry log', () => {
  const p = measureLogProofs(5000);
  // ceil(log2(5,000)) = 13; 5,000 leaves fill 19 level-0 tiles and part of a 20th, and 19 level-1 hashes one partial tile.
  expect(p.inclusion).toMatchObject({ maxHashes: 13, maxBytes: 416 });
  expect(p.inclusion.minHashes).toBeLessThan(13);
  expect(p.inclusion.logObjectBytes).toBeGreaterThan(p.entryBytes + (416 * 4) / 3);
  expect(p.tiles).toEqual({ files: 21, bytes: (5000 + 19) * 32 });
  expect(p.consistency.map((c) => c.from)).toEqual([4999, 4900, 4000, 2500, 1]);
  for (const c of p.consistency) {
    expect(c.hashes).toBeGreaterThan(0);
    expect(c.hashes).toBeLessThanOrEqual(2 * 13);
    expect(c.bytes).toBe(c.hashes * 32);
  }
  expect(p.checkpointBytes).toBeGreaterThan(100);
  expect(formatLogProofs(p)[1]).toMatch(/^  inclusion proof: \d+-13 hashes, at most 416 bytes; the log object of agent\.json [\d,]+ bytes of JSON/);
});
