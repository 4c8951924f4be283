/**
 * A version's `log` object against a checkpoint: a proof for the checkpoint's own tree, and a proof for the tree right
 * after the version's line (as the build writes them), proven in the checkpoint's tree from its hash tiles. What
 * passes, and each way it fails.
 */
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '@aso-registry/core/log/checkpoint';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { hashTiles, tileData, tilePath } from '@aso-registry/core/log/tlog-tiles';
import { versionLog, versionLogProblems } from '@aso-registry/core/log/version-log';

const lineOf = (i: number, day = '01') =>
  JSON.stringify({ seq: i + 1, publicationId: `00000000-0000-4000-8000-00000000000${i}`, id: `thing-${i}`, version: '1.0.0', recordHash: `sha256-${String(i).repeat(43)}=`, publishedAt: `2026-01-${day}T00:00:00Z` });
const lines = Array.from({ length: 9 }, (_, i) => lineOf(i));
const treeOf = (entries: readonly string[]) => MerkleTree.fromEntries(entries.map((l) => new TextEncoder().encode(l)));
const tree = treeOf(lines);
const checkpoint: Checkpoint = { origin: 'registry.example.org', size: 9, rootHash: tree.root(), extensions: [] };
/** The log object of leaf `i` with its proof in the tree of `size` leaves (default: the tree right after its line). */
const logOf = (i: number, size = i + 1, source = tree) => versionLog('https://registry.example.org/checkpoint', size, i, lines[i]!, source.inclusionProof(i, size));
const expected = (i: number) => ({ id: `thing-${i}`, version: '1.0.0', recordHash: `sha256-${String(i).repeat(43)}=`, publicationId: `00000000-0000-4000-8000-00000000000${i}` });

/** Serves the hash tiles of `source`'s tree of `size` leaves, recording the paths read. */
function tilesOf(source = tree, size = source.size): { read: string[]; fetchTile: (path: string) => Promise<Uint8Array> } {
  const tiles = new Map(hashTiles(size).map((t) => [tilePath(t), tileData(source, t)]));
  const read: string[] = [];
  return {
    read,
    fetchTile: async (path) => {
      read.push(path);
      const bytes = tiles.get(path);
      if (!bytes) throw new Error(`no tile ${path}`);
      return bytes;
    },
  };
}
const noTiles = async (path: string): Promise<Uint8Array> => {
  throw new Error(`tile ${path} should not be read`);
};

describe('versionLogProblems', () => {
  it('passes every leaf, with its proof in the tree right after its line (tiles read) or in the checkpoint\'s tree (none read)', async () => {
    for (let i = 0; i < 9; i++) {
      const tiles = tilesOf();
      expect(await versionLogProblems(logOf(i), checkpoint, expected(i), tiles.fetchTile), `leaf ${i}`).toEqual([]);
      expect(tiles.read).toEqual(i < 8 ? ['tile/0/000.p/9'] : []);
      expect(await versionLogProblems(logOf(i, 9), checkpoint, expected(i), noTiles)).toEqual([]);
    }
  });

  it('passes a proof for any tree between its line and the checkpoint', async () => {
    for (let size = 4; size <= 9; size++) expect(await versionLogProblems(logOf(3, size), checkpoint, expected(3), tilesOf().fetchTile), `size ${size}`).toEqual([]);
  });

  it('fails a changed entry, naming the version, whatever tree its proof is for', async () => {
    for (const size of [4, 9]) {
      const log = { ...logOf(3, size), entry: lines[3]!.replace('2026-01-01', '2026-01-02') };
      expect(await versionLogProblems(log, checkpoint, expected(3), tilesOf().fetchTile)).toEqual([
        expect.stringMatching(/^thing-3@1\.0\.0 is not proven to be in the log: the proof of leaf 3 leads to another root than the tree of 9 leaves has$/),
      ]);
    }
  });

  it('fails an entry of another version or another record hash', async () => {
    expect(await versionLogProblems(logOf(4), checkpoint, expected(3), tilesOf().fetchTile)).toContain('the log entry names thing-4@1.0.0, not thing-3@1.0.0');
    expect((await versionLogProblems(logOf(3), checkpoint, { ...expected(3), recordHash: 'sha256-x' }, tilesOf().fetchTile))[0]).toMatch(/has record hash .* but thing-3@1\.0\.0 has sha256-x/);
  });

  it('fails a proof labelled with another tree size', async () => {
    const relabelled = { ...logOf(3, 8), treeSize: 9 };
    expect(await versionLogProblems(relabelled, checkpoint, expected(3), noTiles)).toEqual([
      'thing-3@1.0.0 is not proven to be in the log: the proof has 3 hashes, fewer than a tree of 9 leaves needs for leaf 3',
    ]);
    const shorter = { ...logOf(3, 8), treeSize: 4 };
    expect(await versionLogProblems(shorter, checkpoint, expected(3), tilesOf().fetchTile)).toEqual([
      'thing-3@1.0.0 is not proven to be in the log: its inclusion proof does not fit a tree of 4 entries: the proof has 3 hashes, more than a tree of 4 leaves needs for leaf 3',
    ]);
  });

  it('fails a proof from another tree of the right size, though the entry is in the checkpoint\'s tree', async () => {
    // A forked history: line 1 differs, so leaf 3's proof in the fork's first 4 entries leads to a root the checkpoint never had.
    const fork = treeOf([lines[0]!, lineOf(1, '05'), ...lines.slice(2)]);
    const forked = logOf(3, 4, fork);
    expect(forked.inclusionProof).not.toEqual(logOf(3).inclusionProof);
    // A tree of 4 is a complete subtree, so the fork shows in the step to 9; at 6 entries it shows in the older root.
    expect(await versionLogProblems(logOf(5, 6, fork), checkpoint, expected(5), tilesOf().fetchTile)).toEqual([
      expect.stringMatching(/^thing-5@1\.0\.0 is not proven to be in the log: the root its inclusion proof leads to is not that of the checkpoint's first 6 entries \(the proof does not lead to the root of the tree of 6 leaves/),
    ]);
    expect(await versionLogProblems(forked, checkpoint, expected(3), tilesOf().fetchTile)).toEqual([
      expect.stringMatching(/^thing-3@1\.0\.0 is not proven to be in the log: the root its inclusion proof leads to is not that of the checkpoint's first 4 entries \(the proof does not lead to the root of the tree of 9 leaves: the newer tree does not extend the older\)$/),
    ]);
  });

  it('fails when the tiles are not those of the checkpoint\'s tree, or are cut short', async () => {
    const fork = treeOf([lines[0]!, lineOf(1, '05'), ...lines.slice(2)]);
    expect((await versionLogProblems(logOf(3), checkpoint, expected(3), tilesOf(fork).fetchTile))[0]).toMatch(/^thing-3@1\.0\.0 is not proven to be in the log: the proof of leaf 3 leads to another root/);
    const short = async (): Promise<Uint8Array> => new Uint8Array(64);
    expect(await versionLogProblems(logOf(3), checkpoint, expected(3), short)).toEqual(['the tiles of the tree of 9 entries are not usable: tile tile/0/000.p/9 has 64 bytes, not 288']);
    await expect(versionLogProblems(logOf(3), checkpoint, expected(3), tilesOf(tree, 8).fetchTile)).rejects.toThrow('no tile tile/0/000.p/9');
  });

  it('fails a proof for a tree larger than the checkpoint\'s', async () => {
    const small: Checkpoint = { ...checkpoint, size: 5, rootHash: tree.root(5) };
    expect(await versionLogProblems(logOf(6), small, expected(6), noTiles)).toEqual(['the proof is for a tree of 7 entries, but the checkpoint is of 5']);
    expect(await versionLogProblems(logOf(3, 9), small, expected(3), noTiles)).toEqual(['the proof is for a tree of 9 entries, but the checkpoint is of 5']);
  });

  it('fails a leaf index that is not the entry\'s line', async () => {
    const log = { ...logOf(3), leafIndex: 2 };
    expect(await versionLogProblems(log, checkpoint, expected(3), tilesOf().fetchTile)).toContain('the log entry is line 4 of the ledger, but its leaf index is 2');
  });

  it('fails a proof hash that is not base64', async () => {
    const log = { ...logOf(3), inclusionProof: ['not base64!'] };
    expect(await versionLogProblems(log, checkpoint, expected(3), noTiles)).toEqual(['inclusionProof/0 is not base64']);
  });
});
