/**
 * C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the log's hashes as static, mostly immutable files. A tile at level L
 * holds up to 256 hashes of the tree's nodes of height 8·L, at `tile/<L>/<N>` (full) or `tile/<L>/<N>.p/<W>` (the
 * partial right edge, W hashes); `tile/entries/<N>` holds the same 256 entries, each after its big-endian 16-bit length.
 * From the tiles of today's tree a client computes any inclusion or consistency proof. Pure.
 */
import {
  consistencyProof,
  consistencyRanges,
  HASH_SIZE,
  inclusionProof,
  inclusionRanges,
  nodeHash,
  rangeNodes,
  type HashSource,
  type LeafRange,
  type NodeId,
} from './merkle-tree.ts';

/** Tree levels per tile. */
const TILE_HEIGHT = 8;
/** Hashes (or entries) in a full tile. */
export const TILE_WIDTH = 256;

/** One tile: its level, index and width (256 when full). Level -1 is an entry bundle. */
export interface Tile {
  level: number;
  index: number;
  width: number;
}

/** `x001/x234/067` for 1234067: groups of three digits, every one but the last prefixed with `x`. */
export function tileIndexPath(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`a tile index is a whole number, not ${index}`);
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** The site path of a tile: `tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]` for level -1. */
export function tilePath(tile: Tile): string {
  const level = tile.level === -1 ? 'entries' : String(tile.level);
  const partial = tile.width < TILE_WIDTH ? `.p/${tile.width}` : '';
  return `tile/${level}/${tileIndexPath(tile.index)}${partial}`;
}

/** The tile a site path names, or null when it names none. */
export function parseTilePath(path: string): Tile | null {
  const m = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!m) return null;
  const width = m[3] ? Number(m[3]) : TILE_WIDTH;
  if (m[3] && width >= TILE_WIDTH) return null;
  const index = Number(m[2]!.replace(/x|\//g, ''));
  if (tileIndexPath(index) !== m[2]) return null;
  return { level: m[1] === 'entries' ? -1 : Number(m[1]), index, width };
}

/** How many nodes of height `TILE_HEIGHT · level` a tree of `size` leaves has. */
function levelCount(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/** Every hash tile of a tree of `size` leaves, lowest level first (the last of each level may be partial). */
export function hashTiles(size: number): Tile[] {
  const out: Tile[] = [];
  for (let level = 0; levelCount(size, level) > 0; level++) out.push(...tilesOfLevel(levelCount(size, level), level));
  return out;
}

/** Every entry bundle of a log of `size` entries. */
export function entryTiles(size: number): Tile[] {
  return tilesOfLevel(size, -1);
}

function tilesOfLevel(count: number, level: number): Tile[] {
  const out: Tile[] = [];
  for (let index = 0; index * TILE_WIDTH < count; index++) out.push({ level, index, width: Math.min(TILE_WIDTH, count - index * TILE_WIDTH) });
  return out;
}

/** The bytes of a hash tile: its hashes one after the other. */
export function tileData(source: HashSource, tile: Tile): Uint8Array {
  const out = new Uint8Array(tile.width * HASH_SIZE);
  for (let j = 0; j < tile.width; j++) out.set(source.perfect(TILE_HEIGHT * tile.level, tile.index * TILE_WIDTH + j), j * HASH_SIZE);
  return out;
}

/** The bytes of an entry bundle: each entry after its length as a big-endian 16-bit number. */
export function entryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const total = entries.reduce((n, e) => n + 2 + e.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const e of entries) {
    if (e.length > 0xffff) throw new RangeError(`an entry of ${e.length} bytes does not fit an entry bundle (at most 65,535)`);
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** The entries of an entry bundle; throws when it is cut short. */
export function parseEntryBundle(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    if (at + 2 > bytes.length) throw new RangeError('the entry bundle ends inside a length');
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (at + 2 + length > bytes.length) throw new RangeError('the entry bundle ends inside an entry');
    out.push(bytes.slice(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return out;
}

/** The tile (at the widths of a tree of `size` leaves) that holds what complete subtree `node` is made of. */
function tileOfNode(node: NodeId, size: number): Tile {
  const level = Math.floor(node.level / TILE_HEIGHT);
  const span = 2 ** (node.level - TILE_HEIGHT * level);
  const first = node.index * span;
  const index = Math.floor(first / TILE_WIDTH);
  return { level, index, width: Math.min(TILE_WIDTH, levelCount(size, level) - index * TILE_WIDTH) };
}

/** The tiles a client fetches to compute the hashes of these leaf ranges in a tree of `size` leaves. */
export function tilesForRanges(ranges: readonly LeafRange[], size: number): Tile[] {
  const out = new Map<string, Tile>();
  for (const [start, end] of ranges) {
    if (end > size) throw new RangeError(`the leaf range [${start}, ${end}) is past the tree of ${size} leaves`);
    for (const node of rangeNodes(start, end)) {
      const tile = tileOfNode(node, size);
      out.set(tilePath(tile), tile);
    }
  }
  return [...out.values()];
}

/**
 * Complete subtree hashes read from fetched tiles of a tree of `size` leaves. `tiles` maps a tile's path to its bytes;
 * a missing tile or one of the wrong length throws, naming its path.
 */
export class TileHashSource implements HashSource {
  private readonly cache = new Map<string, Uint8Array>();

  constructor(
    readonly size: number,
    private readonly tiles: ReadonlyMap<string, Uint8Array>,
  ) {}

  perfect(level: number, index: number): Uint8Array {
    const key = `${level}/${index}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const tile = tileOfNode({ level, index }, this.size);
    const path = tilePath(tile);
    const data = this.tiles.get(path);
    if (!data) throw new RangeError(`tile ${path} was not fetched`);
    if (data.length !== tile.width * HASH_SIZE) throw new RangeError(`tile ${path} has ${data.length} bytes, not ${tile.width * HASH_SIZE}`);
    const height = level - TILE_HEIGHT * tile.level;
    const span = 2 ** height;
    const offset = index * span - tile.index * TILE_WIDTH;
    let hashes: Uint8Array[] = [];
    for (let j = 0; j < span; j++) hashes.push(data.subarray((offset + j) * HASH_SIZE, (offset + j + 1) * HASH_SIZE));
    while (hashes.length > 1) {
      const up: Uint8Array[] = [];
      for (let j = 0; j < hashes.length; j += 2) up.push(nodeHash(hashes[j]!, hashes[j + 1]!));
      hashes = up;
    }
    const out = hashes[0]!.slice();
    this.cache.set(key, out);
    return out;
  }
}

/** Reads one tile by its site path (`tile/0/000.p/5`), from wherever the log is served; rejects when it cannot. */
export type FetchTile = (path: string) => Promise<Uint8Array>;

/**
 * The hash tiles of a tree of `size` leaves that these ranges need, each read once with `fetchTile` (all at once).
 * A rejection of `fetchTile` passes through; a tile of the wrong length throws when a hash is read from it.
 */
export async function fetchTileSource(ranges: readonly LeafRange[], size: number, fetchTile: FetchTile): Promise<TileHashSource> {
  const tiles = new Map<string, Uint8Array>();
  await Promise.all(
    tilesForRanges(ranges, size).map(async (tile) => {
      const path = tilePath(tile);
      tiles.set(path, await fetchTile(path));
    }),
  );
  return new TileHashSource(size, tiles);
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves, computed from the tiles of that tree. */
export async function inclusionProofFromTiles(index: number, size: number, fetchTile: FetchTile): Promise<Uint8Array[]> {
  return inclusionProof(await fetchTileSource(inclusionRanges(index, size), size, fetchTile), index, size);
}

/** The consistency proof from the tree of `size1` leaves to the tree of `size2`, computed from the tiles of the latter. */
export async function consistencyProofFromTiles(size1: number, size2: number, fetchTile: FetchTile): Promise<Uint8Array[]> {
  return consistencyProof(await fetchTileSource(consistencyRanges(size1, size2), size2, fetchTile), size1, size2);
}
