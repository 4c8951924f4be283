/**
 * The build's log: each version's `log` object proves its leaf in the tree right after its own ledger line, so that
 * appending lines never changes the `log` object of a version published before.
 */
import { describe, expect, it } from 'vitest';
import { ledgerLine } from '@aso-registry/core/log/ledger';
import { verifyConsistency, verifyInclusion } from '@aso-registry/core/log/merkle-proof';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { entryLeafHash, proofHashes } from '@aso-registry/core/log/version-log';
import { siteLogOf, versionLogOf } from '../../../src/site/data/site-log.ts';

const REGISTRY = 'https://registry.example.org';
const encoder = new TextEncoder();

/** A ledger of `n` lines, one version each. */
function ledger(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) {
    text += `${ledgerLine({ seq: i + 1, publicationId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, id: `thing-${i}`, version: '1.0.0', recordHash: `sha256-${'A'.repeat(43)}=`, publishedAt: '2026-01-01T00:00:00Z' })}\n`;
  }
  return text;
}

describe('versionLogOf', () => {
  it('proves each leaf in the tree of the ledger up to its own line', () => {
    const log = siteLogOf(ledger(20), REGISTRY, null);
    expect(log.checkpoint.size).toBe(20);
    for (let i = 0; i < 20; i++) {
      const got = versionLogOf(log, `thing-${i}`, '1.0.0')!;
      expect(got).toMatchObject({ checkpoint: `${REGISTRY}/checkpoint`, treeSize: i + 1, leafIndex: i, entry: log.lines[i] });
      const prefix = MerkleTree.fromEntries(log.lines.slice(0, i + 1).map((l) => encoder.encode(l)));
      const proof = proofHashes(got) as Uint8Array[];
      expect(proof).toEqual(prefix.inclusionProof(i));
      expect(verifyInclusion(i, i + 1, entryLeafHash(got.entry), proof, prefix.root())).toBe(true);
      // The tree it proves is a prefix of the checkpoint's.
      expect(verifyConsistency(i + 1, 20, prefix.root(), log.checkpoint.rootHash, log.tree.consistencyProof(i + 1))).toBe(true);
    }
  });

  it('gives every earlier version the same log object, byte for byte, after lines are appended', () => {
    const before = siteLogOf(ledger(37), REGISTRY, null);
    for (const more of [38, 64, 65, 300]) {
      const after = siteLogOf(ledger(more), REGISTRY, null);
      expect(after.checkpoint.rootHash).not.toEqual(before.checkpoint.rootHash);
      for (let i = 0; i < 37; i++) {
        expect(JSON.stringify(versionLogOf(after, `thing-${i}`, '1.0.0')), `thing-${i} with ${more} lines`).toBe(JSON.stringify(versionLogOf(before, `thing-${i}`, '1.0.0')));
      }
    }
  });

  it('is null without a log, and throws for a version with no line', () => {
    expect(versionLogOf(null, 'thing-0', '1.0.0')).toBeNull();
    expect(() => versionLogOf(siteLogOf(ledger(2), REGISTRY, null), 'thing-5', '1.0.0')).toThrow('thing-5@1.0.0 has no line in the ledger');
  });
});
