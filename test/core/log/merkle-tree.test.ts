/** The Merkle tree against RFC 6962's reference leaves, the transparency-dev proofs of them and a naive RFC 9162 MTH. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  consistencyRanges,
  EMPTY_ROOT,
  inclusionRanges,
  leafHash,
  MerkleTree,
  nodeHash,
  rangeNodes,
} from '@aso-registry/core/log/merkle-tree';
import { verifyConsistency, verifyInclusion } from '@aso-registry/core/log/merkle-proof';

const VECTORS = join(import.meta.dirname, '..', '..', 'fixtures', 'tdev-merkle');
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');

/** The eight leaves of RFC 6962's reference test suite. */
const REFERENCE_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  (h) => new Uint8Array(Buffer.from(h, 'hex')),
);

/** MTH of RFC 9162 §2.1.1 written as literally as possible, with Node's own SHA-256. */
function naiveRoot(entries: Uint8Array[]): string {
  const sha = (...parts: Uint8Array[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
  const mth = (d: Uint8Array[]): Buffer => {
    if (d.length === 0) return sha();
    if (d.length === 1) return sha(Uint8Array.of(0), d[0]!);
    let k = 1;
    while (k * 2 < d.length) k *= 2;
    return sha(Uint8Array.of(1), mth(d.slice(0, k)), mth(d.slice(k)));
  };
  return mth(entries).toString('hex');
}

function happyPaths(kind: 'inclusion' | 'consistency'): Array<Record<string, unknown>> {
  return readdirSync(join(VECTORS, kind))
    .filter((d) => /^\d+$/.test(d))
    .map((d) => JSON.parse(readFileSync(join(VECTORS, kind, d, 'happy-path.json'), 'utf8')) as Record<string, unknown>);
}

describe('hashes', () => {
  it('matches the RFC 6962 hasher vectors (empty tree, empty leaf, a leaf, a node)', () => {
    expect(hex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(leafHash(new Uint8Array(0)))).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    expect(hex(leafHash(new TextEncoder().encode('L123456')))).toBe('395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56');
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(hex(nodeHash(enc('N123'), enc('N456')))).toBe('aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb');
  });

  it('separates leaves from nodes and depends on order', () => {
    const a = leafHash(new TextEncoder().encode('Hello'));
    const b = leafHash(new TextEncoder().encode('World'));
    const joined = new Uint8Array([...a, ...b]);
    expect(hex(nodeHash(a, b))).not.toBe(hex(leafHash(joined)));
    expect(hex(nodeHash(a, b))).not.toBe(hex(nodeHash(b, a)));
  });
});

describe('the tree of the reference leaves', () => {
  const tree = MerkleTree.fromEntries(REFERENCE_LEAVES);

  it('has the roots the vectors name at every size, equal to a naive MTH', () => {
    expect(b64(tree.root())).toBe('XcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=');
    for (let size = 0; size <= 8; size++) expect(hex(tree.root(size)), `size ${size}`).toBe(naiveRoot(REFERENCE_LEAVES.slice(0, size)));
  });

  it('makes exactly the inclusion proofs of the transparency-dev happy paths', () => {
    const vectors = happyPaths('inclusion').filter((v) => (v.treeSize as number) > 0);
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    for (const v of vectors) {
      const proof = tree.inclusionProof(v.leafIdx as number, v.treeSize as number).map(b64);
      expect(proof, JSON.stringify(v)).toEqual(v.proof ?? []);
      expect(b64(tree.root(v.treeSize as number))).toBe(v.root);
      expect(b64(tree.leaf(v.leafIdx as number))).toBe(v.leafHash);
    }
  });

  it('makes exactly the consistency proofs of the transparency-dev happy paths', () => {
    const vectors = happyPaths('consistency').filter((v) => (v.size1 as number) > 0);
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    for (const v of vectors) {
      expect(tree.consistencyProof(v.size1 as number, v.size2 as number).map(b64), JSON.stringify(v)).toEqual(v.proof ?? []);
      expect(b64(tree.root(v.size1 as number))).toBe(v.root1);
      expect(b64(tree.root(v.size2 as number))).toBe(v.root2);
    }
  });
});

describe('proofs of every leaf and every prefix of trees up to 40 leaves', () => {
  const entries = Array.from({ length: 40 }, (_, i) => new TextEncoder().encode(`leaf ${i}`));
  const tree = MerkleTree.fromEntries(entries);

  it('roots equal the naive MTH', () => {
    for (let size = 0; size <= 40; size++) expect(hex(tree.root(size))).toBe(naiveRoot(entries.slice(0, size)));
  });

  it('every inclusion proof verifies, and fails with any hash flipped or at another size', () => {
    for (let size = 1; size <= 40; size++) {
      const root = tree.root(size);
      for (let i = 0; i < size; i++) {
        const proof = tree.inclusionProof(i, size);
        expect(verifyInclusion(i, size, tree.leaf(i), proof, root), `${i} of ${size}`).toBe(true);
        for (let k = 0; k < proof.length; k++) {
          const bad = proof.map((h) => h.slice());
          bad[k]![0]! ^= 1;
          expect(verifyInclusion(i, size, tree.leaf(i), bad, root)).toBe(false);
        }
        if (size < 40) expect(verifyInclusion(i, size + 1, tree.leaf(i), proof, tree.root(size + 1))).toBe(false);
      }
    }
  });

  it('at a prefix size, gives the proofs and root of a tree built from only that prefix', () => {
    for (let size = 1; size <= 40; size++) {
      const prefix = MerkleTree.fromEntries(entries.slice(0, size));
      expect(hex(tree.root(size))).toBe(hex(prefix.root()));
      for (let i = 0; i < size; i++) expect(tree.inclusionProof(i, size).map(hex), `${i} of ${size}`).toEqual(prefix.inclusionProof(i).map(hex));
    }
  });

  it('every consistency proof verifies, and fails with any hash flipped', () => {
    for (let size2 = 1; size2 <= 40; size2++) {
      for (let size1 = 1; size1 <= size2; size1++) {
        const proof = tree.consistencyProof(size1, size2);
        expect(verifyConsistency(size1, size2, tree.root(size1), tree.root(size2), proof), `${size1} -> ${size2}`).toBe(true);
        for (let k = 0; k < proof.length; k++) {
          const bad = proof.map((h) => h.slice());
          bad[k]![31]! ^= 0x80;
          expect(verifyConsistency(size1, size2, tree.root(size1), tree.root(size2), bad)).toBe(false);
        }
      }
    }
  });

  it('proof ranges are made of aligned complete subtrees', () => {
    for (let size = 1; size <= 40; size++) {
      for (let i = 0; i < size; i++) for (const [s, e] of inclusionRanges(i, size)) expect(() => rangeNodes(s, e)).not.toThrow();
      for (let m = 1; m <= size; m++) for (const [s, e] of consistencyRanges(m, size)) expect(() => rangeNodes(s, e)).not.toThrow();
    }
  });

  it('refuses positions outside the tree', () => {
    expect(() => tree.inclusionProof(40)).toThrow(/leaf 40 is not in a tree of 40 leaves/);
    expect(() => tree.root(41)).toThrow(/the tree has 40 leaves, not 41/);
    expect(() => tree.consistencyProof(5, 41)).toThrow(/not 41/);
  });
});

describe('a tree made again from the hashes of its levels', () => {
  it('has the root and proofs of the tree it came from, at every size up to 40 leaves', () => {
    for (let n = 0; n <= 40; n++) {
      const tree = MerkleTree.fromEntries(Array.from({ length: n }, (_, i) => new TextEncoder().encode(`leaf ${i}`)));
      const copy = MerkleTree.fromLevels(tree.hashLevels().map((level) => level.slice()), n);
      expect(copy.size).toBe(n);
      expect(hex(copy.root())).toBe(hex(tree.root()));
      for (let i = 0; i < n; i++) expect(copy.inclusionProof(i).map(hex)).toEqual(tree.inclusionProof(i).map(hex));
      for (let m = 1; m <= n; m++) expect(copy.consistencyProof(m).map(hex)).toEqual(tree.consistencyProof(m).map(hex));
    }
  });

  it('refuses levels that are not those of a tree of that size', () => {
    const levels = MerkleTree.fromEntries(Array.from({ length: 5 }, (_, i) => Uint8Array.of(i))).hashLevels();
    expect(() => MerkleTree.fromLevels(levels, 6)).toThrow(/3 levels of 160, 64, 32 bytes are not the hashes of a tree of 6 leaves/);
    expect(() => MerkleTree.fromLevels(levels.slice(0, 2), 5)).toThrow(/2 levels .* not the hashes of a tree of 5 leaves/);
    expect(() => MerkleTree.fromLevels([levels[0]!.subarray(1), ...levels.slice(1)], 5)).toThrow(/159, 64, 32 bytes/);
    expect(() => MerkleTree.fromLevels(levels, -1)).toThrow(/whole number of leaves, not -1/);
  });
});
