/** Tiles: Go's tile index paths, the tiles of a tree, and proofs computed from fetched tiles alone. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consistencyProof, consistencyRanges, inclusionProof, inclusionRanges, MerkleTree } from '@aso-registry/core/log/merkle-tree';
import {
  consistencyProofFromTiles,
  entryBundle,
  entryTiles,
  hashTiles,
  inclusionProofFromTiles,
  parseEntryBundle,
  parseTilePath,
  tileData,
  tileIndexPath,
  TileHashSource,
  tilePath,
  tilesForRanges,
} from '@aso-registry/core/log/tlog-tiles';

const GO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'go-sumdb', 'vectors.json'), 'utf8')) as {
  tileIndex: Array<{ index: number; path: string }>;
};

describe('tile paths', () => {
  it('encode indexes as Go does', () => {
    for (const { index, path } of GO.tileIndex) expect(tileIndexPath(index)).toBe(path);
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(1000)).toBe('x001/000');
  });

  it('name full and partial tiles and entry bundles, and read back', () => {
    const cases = [
      [{ level: 0, index: 1234067, width: 256 }, 'tile/0/x001/x234/067'],
      [{ level: 1, index: 5, width: 17 }, 'tile/1/005.p/17'],
      [{ level: -1, index: 0, width: 8 }, 'tile/entries/000.p/8'],
    ] as const;
    for (const [tile, path] of cases) {
      expect(tilePath(tile)).toBe(path);
      expect(parseTilePath(path)).toEqual(tile);
    }
    for (const bad of ['tile/0/1', 'tile/0/x000/001', 'tile/0/001.p/256', 'tile/0/001.p/0', 'tile/x/001']) expect(parseTilePath(bad), bad).toBeNull();
  });
});

describe('the tiles of a tree', () => {
  it('cover every level that has a node, the last tile of each partial', () => {
    expect(hashTiles(0)).toEqual([]);
    expect(hashTiles(8).map(tilePath)).toEqual(['tile/0/000.p/8']);
    expect(hashTiles(256).map(tilePath)).toEqual(['tile/0/000', 'tile/1/000.p/1']);
    expect(hashTiles(513).map(tilePath)).toEqual(['tile/0/000', 'tile/0/001', 'tile/0/002.p/1', 'tile/1/000.p/2']);
    expect(hashTiles(65536 + 3).filter((t) => t.level > 0).map(tilePath)).toEqual(['tile/1/000', 'tile/2/000.p/1']);
    expect(entryTiles(300).map(tilePath)).toEqual(['tile/entries/000', 'tile/entries/001.p/44']);
  });

  it('bundle entries with their lengths', () => {
    const entries = ['{"seq":1}', '', 'x'.repeat(300)].map((s) => new TextEncoder().encode(s));
    const bundle = entryBundle(entries);
    expect(bundle.length).toBe(entries.reduce((n, e) => n + 2 + e.length, 0));
    expect(parseEntryBundle(bundle)).toEqual(entries);
    expect(() => parseEntryBundle(bundle.subarray(0, bundle.length - 1))).toThrow(/ends inside an entry/);
  });
});

describe('proofs from tiles', () => {
  const full = MerkleTree.fromEntries(Array.from({ length: 70_000 }, (_, i) => new TextEncoder().encode(`entry ${i}`)));

  /** The tiles a client would fetch for `ranges`, cut from the tree as the site writes them. */
  function fetched(size: number, ranges: ReturnType<typeof inclusionRanges>): TileHashSource {
    const tiles = new Map(tilesForRanges(ranges, size).map((t) => [tilePath(t), tileData(full, t)]));
    return new TileHashSource(size, tiles);
  }

  it('give the same inclusion proofs as the whole tree, at sizes across tile edges', () => {
    for (const size of [1, 255, 256, 257, 65_535, 65_536, 65_537, 70_000]) {
      for (const index of [0, Math.floor(size / 2), size - 1]) {
        const ranges = inclusionRanges(index, size);
        expect(inclusionProof(fetched(size, ranges), index, size), `${index} of ${size}`).toEqual(full.inclusionProof(index, size));
      }
    }
  });

  it('give the same consistency proofs as the whole tree', () => {
    for (const [m, n] of [[1, 70_000], [255, 257], [256, 65_537], [65_536, 70_000], [69_999, 70_000], [12_345, 54_321]] as const) {
      const ranges = consistencyRanges(m, n);
      expect(consistencyProof(fetched(n, ranges), m, n), `${m} -> ${n}`).toEqual(full.consistencyProof(m, n));
    }
  });

  it('need few tiles: at most two per level', () => {
    const tiles = tilesForRanges(consistencyRanges(12_345, 70_000), 70_000);
    expect(tiles.length).toBeLessThanOrEqual(6);
  });

  it('name a tile that was not fetched', () => {
    const source = new TileHashSource(70_000, new Map());
    expect(() => source.perfect(0, 5)).toThrow('tile tile/0/000 was not fetched');
  });

  /** Reads the tiles of the tree of `size` leaves, recording each path asked for. */
  function reader(size: number): { read: string[]; fetchTile: (path: string) => Promise<Uint8Array> } {
    const tiles = new Map(hashTiles(size).map((t) => [tilePath(t), tileData(full, t)]));
    const read: string[] = [];
    const fetchTile = async (path: string): Promise<Uint8Array> => {
      read.push(path);
      const tile = tiles.get(path);
      if (!tile) throw new Error(`no tile ${path}`);
      return tile;
    };
    return { read, fetchTile };
  }

  it('are computed by reading the tiles through a function, each tile once', async () => {
    for (const [index, size] of [[0, 1], [4, 5], [300, 70_000], [69_999, 70_000]] as const) {
      const { read, fetchTile } = reader(size);
      expect(await inclusionProofFromTiles(index, size, fetchTile), `${index} of ${size}`).toEqual(full.inclusionProof(index, size));
      expect(new Set(read).size).toBe(read.length);
    }
    const { read, fetchTile } = reader(70_000);
    expect(await consistencyProofFromTiles(12_345, 70_000, fetchTile)).toEqual(full.consistencyProof(12_345, 70_000));
    expect(read.sort()).toEqual(tilesForRanges(consistencyRanges(12_345, 70_000), 70_000).map(tilePath).sort());
  });

  it('pass on a tile that cannot be read, and refuse one of the wrong length', async () => {
    await expect(inclusionProofFromTiles(3, 300, reader(256).fetchTile)).rejects.toThrow('no tile tile/0/001.p/44');
    await expect(inclusionProofFromTiles(3, 5, async () => new Uint8Array(32))).rejects.toThrow('tile tile/0/000.p/5 has 32 bytes, not 160');
  });
});
