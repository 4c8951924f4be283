/**
 * The Merkle tree of a transparency log, hashed as RFC 9162 (§2.1) says: a leaf is `SHA-256(0x00 || entry)`, a node
 * `SHA-256(0x01 || left || right)`, the tree of n leaves splits at the largest power of two below n. Builds the tree,
 * its root at any size, and inclusion and consistency proofs. Pure and synchronous (SHA-256 from @noble/hashes).
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** Bytes of one hash. */
export const HASH_SIZE = 32;

/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** `SHA-256(0x00 || entry)`. */
export function leafHash(entry: Uint8Array): Uint8Array {
  const data = new Uint8Array(entry.length + 1);
  data.set(entry, 1);
  return sha256(data);
}

/** `SHA-256(0x01 || left || right)`. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const data = new Uint8Array(1 + left.length + right.length);
  data[0] = 1;
  data.set(left, 1);
  data.set(right, 1 + left.length);
  return sha256(data);
}

/** The hash of a complete subtree: the one of height `level` over leaves `[index * 2^level, (index + 1) * 2^level)`. */
export interface HashSource {
  perfect(level: number, index: number): Uint8Array;
}

/** A complete subtree by its height and its index among the subtrees of that height. */
export interface NodeId {
  level: number;
  index: number;
}

/** The largest power of two smaller than `n` (n >= 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function log2IfPowerOfTwo(n: number): number {
  let level = 0;
  for (let k = 1; k < n; k *= 2) level++;
  return 2 ** level === n ? level : -1;
}

/**
 * The complete subtrees whose hashes make the hash of leaves `[start, end)`, in the order RFC 9162 combines them. The
 * range must be one that the tree's own recursion produces (every range of a proof is), so each piece is aligned.
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  const n = end - start;
  if (n <= 0) throw new RangeError(`the leaf range [${start}, ${end}) is empty`);
  const level = log2IfPowerOfTwo(n);
  if (level >= 0) {
    if (start % n !== 0) throw new RangeError(`the leaf range [${start}, ${end}) is not aligned`);
    return [{ level, index: start / n }];
  }
  const k = splitPoint(n);
  return [...rangeNodes(start, start + k), ...rangeNodes(start + k, end)];
}

/** MTH of leaves `[start, end)`, from the complete subtrees of `source`. */
function rangeHash(source: HashSource, start: number, end: number): Uint8Array {
  const n = end - start;
  const level = log2IfPowerOfTwo(n);
  if (level >= 0) return source.perfect(level, start / n);
  const k = splitPoint(n);
  return nodeHash(rangeHash(source, start, start + k), rangeHash(source, start + k, end));
}

/** A range of leaves whose hash is one element of a proof. */
export type LeafRange = readonly [start: number, end: number];

/** The leaf ranges whose hashes make the inclusion proof of leaf `index` in the tree of `size` leaves (RFC 9162 PATH). */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) {
    throw new RangeError(`leaf ${index} is not in a tree of ${size} leaves`);
  }
  const out: LeafRange[] = [];
  const path = (m: number, start: number, end: number): void => {
    const n = end - start;
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      path(m, start, start + k);
      out.push([start + k, end]);
    } else {
      path(m - k, start + k, end);
      out.push([start, start + k]);
    }
  };
  path(index, 0, size);
  return out;
}

/** The leaf ranges whose hashes make the consistency proof from `size1` to `size2` leaves (RFC 9162 PROOF). */
export function consistencyRanges(size1: number, size2: number): LeafRange[] {
  if (!Number.isSafeInteger(size1) || !Number.isSafeInteger(size2) || size1 < 0 || size1 > size2) {
    throw new RangeError(`no consistency proof from a tree of ${size1} leaves to one of ${size2}`);
  }
  const out: LeafRange[] = [];
  if (size1 === 0 || size1 === size2) return out;
  const subproof = (m: number, start: number, end: number, whole: boolean): void => {
    const n = end - start;
    if (m === n) {
      if (!whole) out.push([start, end]);
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      subproof(m, start, start + k, whole);
      out.push([start + k, end]);
    } else {
      subproof(m - k, start + k, end, false);
      out.push([start, start + k]);
    }
  };
  subproof(size1, 0, size2, true);
  return out;
}

/** The root of the first `size` leaves of `source`. */
function treeRoot(source: HashSource, size: number): Uint8Array {
  return size === 0 ? EMPTY_ROOT.slice() : rangeHash(source, 0, size);
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves of `source`. */
export function inclusionProof(source: HashSource, index: number, size: number): Uint8Array[] {
  return inclusionRanges(index, size).map(([s, e]) => rangeHash(source, s, e));
}

/** The consistency proof from the tree of `size1` leaves to the tree of `size2` leaves of `source`. */
export function consistencyProof(source: HashSource, size1: number, size2: number): Uint8Array[] {
  return consistencyRanges(size1, size2).map(([s, e]) => rangeHash(source, s, e));
}

/**
 * A whole tree in memory: every complete subtree's hash, level by level, each level one buffer (32 bytes a hash, about
 * 64 bytes a leaf in all). Gives the root, inclusion and consistency proofs at its own size or any smaller one.
 */
export class MerkleTree implements HashSource {
  readonly size: number;
  private readonly levels: Uint8Array[];

  private constructor(levels: Uint8Array[], size: number) {
    this.levels = levels;
    this.size = size;
  }

  /** The tree whose leaves are these entries, in order. */
  static fromEntries(entries: Iterable<Uint8Array>): MerkleTree {
    const hashes: Uint8Array[] = [];
    for (const e of entries) hashes.push(leafHash(e));
    return MerkleTree.fromLeafHashes(hashes);
  }

  /** The tree over these leaf hashes, in order. */
  static fromLeafHashes(hashes: readonly Uint8Array[]): MerkleTree {
    const size = hashes.length;
    const first = new Uint8Array(size * HASH_SIZE);
    hashes.forEach((h, i) => {
      if (h.length !== HASH_SIZE) throw new RangeError(`leaf hash ${i} has ${h.length} bytes, not ${HASH_SIZE}`);
      first.set(h, i * HASH_SIZE);
    });
    const levels = [first];
    for (let below = first, count = Math.floor(size / 2); count >= 1; count = Math.floor(count / 2)) {
      const level = new Uint8Array(count * HASH_SIZE);
      const pair = new Uint8Array(1 + 2 * HASH_SIZE);
      pair[0] = 1;
      for (let i = 0; i < count; i++) {
        pair.set(below.subarray(2 * i * HASH_SIZE, (2 * i + 2) * HASH_SIZE), 1);
        level.set(sha256(pair), i * HASH_SIZE);
      }
      levels.push(level);
      below = level;
    }
    return new MerkleTree(levels, size);
  }

  /**
   * The tree of `size` leaves whose complete subtrees' hashes are `levels`, as {@link MerkleTree.hashLevels} gave them
   * (how a tree crosses to another thread without hashing it again); throws when a level's length does not fit `size`.
   */
  static fromLevels(levels: readonly Uint8Array[], size: number): MerkleTree {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`a tree has a whole number of leaves, not ${size}`);
    const expected: number[] = [size];
    for (let count = Math.floor(size / 2); count >= 1; count = Math.floor(count / 2)) expected.push(count);
    if (levels.length !== expected.length || levels.some((level, i) => level.length !== expected[i]! * HASH_SIZE)) {
      throw new RangeError(`${levels.length} levels of ${levels.map((l) => l.length).join(', ')} bytes are not the hashes of a tree of ${size} leaves`);
    }
    return new MerkleTree([...levels], size);
  }

  /** The hashes of its complete subtrees, level by level from the leaves, for {@link MerkleTree.fromLevels}. */
  hashLevels(): readonly Uint8Array[] {
    return this.levels;
  }

  /** The number of complete subtrees of height `level`. */
  count(level: number): number {
    return (this.levels[level]?.length ?? 0) / HASH_SIZE;
  }

  perfect(level: number, index: number): Uint8Array {
    if (!Number.isInteger(index) || index < 0 || index >= this.count(level)) {
      throw new RangeError(`no complete subtree of height ${level} at index ${index} in a tree of ${this.size} leaves`);
    }
    return this.levels[level]!.slice(index * HASH_SIZE, (index + 1) * HASH_SIZE);
  }

  /** The hash of leaf `index`. */
  leaf(index: number): Uint8Array {
    return this.perfect(0, index);
  }

  /** The root at `size` leaves (default: all). */
  root(size = this.size): Uint8Array {
    this.checkSize(size);
    return treeRoot(this, size);
  }

  /** The inclusion proof of leaf `index` at `size` leaves (default: all). */
  inclusionProof(index: number, size = this.size): Uint8Array[] {
    this.checkSize(size);
    return inclusionProof(this, index, size);
  }

  /** The consistency proof from `size1` leaves to `size2` (default: all). */
  consistencyProof(size1: number, size2 = this.size): Uint8Array[] {
    this.checkSize(size2);
    return consistencyProof(this, size1, size2);
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.size) throw new RangeError(`the tree has ${this.size} leaves, not ${size}`);
  }
}
