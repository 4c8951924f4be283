/** A version's `log` object against its checkpoint: what passes, and each way it fails. */
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../src/core/checkpoint.ts';
import { MerkleTree } from '../../src/core/merkle-tree.ts';
import { versionLog, versionLogProblems } from '../../src/core/version-log.ts';

const lines = Array.from({ length: 9 }, (_, i) =>
  JSON.stringify({ seq: i + 1, publicationId: `00000000-0000-4000-8000-00000000000${i}`, id: `thing-${i}`, version: '1.0.0', recordHash: `sha256-${String(i).repeat(43)}=`, publishedAt: '2026-01-01T00:00:00Z' }),
);
const tree = MerkleTree.fromEntries(lines.map((l) => new TextEncoder().encode(l)));
const checkpoint: Checkpoint = { origin: 'registry.example.org', size: 9, rootHash: tree.root(), extensions: [] };
const logOf = (i: number, size = 9) => versionLog('https://registry.example.org/checkpoint', size, i, lines[i]!, tree.inclusionProof(i, size));
const expected = (i: number) => ({ id: `thing-${i}`, version: '1.0.0', recordHash: `sha256-${String(i).repeat(43)}=`, publicationId: `00000000-0000-4000-8000-00000000000${i}` });

describe('versionLogProblems', () => {
  it('passes every leaf of the tree', () => {
    for (let i = 0; i < 9; i++) expect(versionLogProblems(logOf(i), checkpoint, expected(i))).toEqual([]);
  });

  it('fails a changed entry, naming the version', () => {
    const log = { ...logOf(3), entry: lines[3]!.replace('2026-01-01', '2026-01-02') };
    expect(versionLogProblems(log, checkpoint, expected(3))).toEqual([expect.stringMatching(/^thing-3@1\.0\.0 is not proven to be in the log: the proof of leaf 3 leads to another root/)]);
  });

  it('fails an entry of another version or another record hash', () => {
    expect(versionLogProblems(logOf(4), checkpoint, expected(3))).toContain('the log entry names thing-4@1.0.0, not thing-3@1.0.0');
    expect(versionLogProblems(logOf(3), checkpoint, { ...expected(3), recordHash: 'sha256-x' })[0]).toMatch(/has record hash .* but thing-3@1\.0\.0 has sha256-x/);
  });

  it('fails a proof made for another tree size', () => {
    const old = logOf(3, 8);
    expect(versionLogProblems(old, checkpoint, expected(3))).toEqual(['the proof is for a tree of 8 entries, but the checkpoint is of 9']);
    const relabelled = { ...old, treeSize: 9 };
    expect(versionLogProblems(relabelled, checkpoint, expected(3))[0]).toMatch(/is not proven to be in the log/);
  });

  it('fails a leaf index that is not the entry\'s line', () => {
    const log = { ...logOf(3), leafIndex: 2 };
    expect(versionLogProblems(log, checkpoint, expected(3))).toContain('the log entry is line 4 of the ledger, but its leaf index is 2');
  });

  it('fails a proof hash that is not base64', () => {
    const log = { ...logOf(3), inclusionProof: ['not base64!'] };
    expect(versionLogProblems(log, checkpoint, expected(3))).toEqual(['inclusionProof/0 is not base64']);
  });
});
