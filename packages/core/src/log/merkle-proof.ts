/**
 * Verifying Merkle proofs as RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency) say. Each check returns null
 * when the proof holds, else one sentence saying why not. Pure and synchronous.
 */
import { HASH_SIZE, nodeHash } from './merkle-tree.ts';

/** True when two byte strings are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const odd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

function badHash(proof: readonly Uint8Array[]): string | null {
  const at = proof.findIndex((h) => h.length !== HASH_SIZE);
  return at < 0 ? null : `proof hash ${at} has ${proof[at]!.length} bytes, not ${HASH_SIZE}`;
}

/**
 * The root that an inclusion proof leads to from leaf `index` of a tree of `size` leaves, or a sentence saying why
 * the proof cannot be right for that position (too short, too long, a hash of the wrong length).
 */
export function rootFromInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]): Uint8Array | string {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return `leaf ${index} is not in a tree of ${size} leaves`;
  if (leaf.length !== HASH_SIZE) return `the leaf hash has ${leaf.length} bytes, not ${HASH_SIZE}`;
  const bad = badHash(proof);
  if (bad) return bad;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return `the proof has ${proof.length} hashes, more than a tree of ${size} leaves needs for leaf ${index}`;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else r = nodeHash(r, p);
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return `the proof has ${proof.length} hashes, fewer than a tree of ${size} leaves needs for leaf ${index}`;
  return r;
}

/** Null when `proof` shows that leaf `index`, hashing to `leaf`, is in the tree of `size` leaves with root `root`. */
export function inclusionProblem(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): string | null {
  const computed = rootFromInclusion(index, size, leaf, proof);
  if (typeof computed === 'string') return computed;
  return sameBytes(computed, root) ? null : `the proof of leaf ${index} leads to another root than the tree of ${size} leaves has`;
}

/** True when `proof` shows that leaf `index`, hashing to `leaf`, is in the tree of `size` leaves with root `root`. */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  return inclusionProblem(index, size, leaf, proof, root) === null;
}

/**
 * Null when `proof` shows that the tree of `size1` leaves with root `root1` is a prefix of the tree of `size2` leaves
 * with root `root2`. A tree proves nothing about its own empty prefix, so `size1` must be at least 1.
 */
export function consistencyProblem(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): string | null {
  if (!Number.isSafeInteger(size1) || !Number.isSafeInteger(size2) || size1 < 0 || size2 < 0) return 'tree sizes must be whole numbers';
  if (size2 < size1) return `the tree shrank from ${size1} leaves to ${size2}: it was rolled back or rewritten`;
  if (size1 === 0) return 'a consistency proof from the empty tree proves nothing';
  if (size1 === size2) {
    if (proof.length) return `the trees have the same size (${size1}), so the proof must be empty, not ${proof.length} hashes`;
    return sameBytes(root1, root2) ? null : `two trees of ${size1} leaves have different roots: the log was rewritten`;
  }
  if (proof.length === 0) return `an empty proof cannot show that ${size1} leaves grew into ${size2}`;
  const bad = badHash(proof);
  if (bad) return bad;
  // When the older tree is a complete subtree, its root is the first element of the path (RFC 9162 step 2).
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return `the proof has more hashes than the step from ${size1} to ${size2} leaves needs`;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else sr = nodeHash(sr, c);
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return `the proof has fewer hashes than the step from ${size1} to ${size2} leaves needs`;
  if (!sameBytes(fr, root1)) return `the proof does not lead to the root of the tree of ${size1} leaves: the older tree is not a prefix of the newer`;
  if (!sameBytes(sr, root2)) return `the proof does not lead to the root of the tree of ${size2} leaves: the newer tree does not extend the older`;
  return null;
}

/** True when `proof` shows that the tree (`size1`, `root1`) is a prefix of the tree (`size2`, `root2`). */
export function verifyConsistency(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): boolean {
  return consistencyProblem(size1, size2, root1, root2, proof) === null;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
