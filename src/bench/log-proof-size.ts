/**
 * What the transparency log costs a client at scale, without building a site: a Merkle tree over synthetic ledger
 * lines (signed ones, the longest kind), the size of an inclusion proof and of the `log` object of agent.json, of a
 * consistency proof from an older checkpoint, and of the tiles a site serves.
 */
import { toBase64 } from '@aso-registry/core/log/base64';
import { checkpointNote } from '@aso-registry/core/log/checkpoint';
import { formatRetractionsLine, retractionsCommitment } from '@aso-registry/core/log/retractions-commitment';
import { ledgerLine, type LedgerEntry } from '@aso-registry/core/log/ledger';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { consistencyRanges, inclusionRanges } from '@aso-registry/core/log/merkle-tree';
import { hashTiles, tilesForRanges } from '@aso-registry/core/log/tlog-tiles';
import { versionLog } from '@aso-registry/core/log/version-log';
import { HASH_SIZE } from '@aso-registry/core/log/merkle-tree';

/** The figures. */
export interface LogProofSize {
  entries: number;
  /** Hashing every ledger line into the tree, in milliseconds. */
  treeMs: number;
  /** Average bytes of a ledger line (a leaf). */
  entryBytes: number;
  inclusion: {
    /** The most hashes any leaf's proof has (`ceil(log2(entries))`), and the fewest. */
    maxHashes: number;
    minHashes: number;
    /** The longest proof in raw bytes. */
    maxBytes: number;
    /** The JSON of the longest `log` object of agent.json (checkpoint URL, sizes, the entry and the proof). */
    logObjectBytes: number;
  };
  consistency: Array<{ from: number; to: number; hashes: number; bytes: number; tiles: number }>;
  /** The signed checkpoint's bytes. */
  checkpointBytes: number;
  /** Hash tiles a site serves for this tree. */
  tiles: { files: number; bytes: number };
}

/** Measures a log of `entries` publications (default 100,000). */
export function measureLogProofs(entries = 100_000): LogProofSize {
  const encoder = new TextEncoder();
  const key = generateKey('publisher-one', new Uint8Array(32).fill(7));
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; i < entries; i++) {
    const hex = i.toString(16).padStart(12, '0');
    const entry: LedgerEntry = {
      seq: i + 1,
      publicationId: `00000000-0000-4000-8000-${hex}`,
      id: `synthetic-object-${Math.floor(i / 5)}`,
      version: `1.0.${i % 5}`,
      recordHash: `sha256-${toBase64(encoder.encode(hex.repeat(3)).subarray(0, 32))}`,
      publishedAt: '2026-01-01T00:00:00Z',
      publisher: key.name,
      keyId: key.keyId,
      signature: toBase64(new Uint8Array(64).fill(i % 251)),
      ...(i > 0 ? { prev: `sha256-${'A'.repeat(43)}=` } : {}),
    };
    const line = ledgerLine(entry);
    total += line.length;
    lines.push(line);
  }
  const t = performance.now();
  const tree = MerkleTree.fromEntries(lines.map((l) => encoder.encode(l)));
  const treeMs = performance.now() - t;

  let maxHashes = 0;
  let minHashes = Infinity;
  let longest = 0;
  const step = Math.max(1, Math.floor(entries / 2000));
  for (let i = 0; i < entries; i += step) {
    const n = inclusionRanges(i, entries).length;
    if (n > maxHashes) [maxHashes, longest] = [n, i];
    minHashes = Math.min(minHashes, n);
  }
  const last = inclusionRanges(entries - 1, entries).length;
  if (last > maxHashes) [maxHashes, longest] = [last, entries - 1];
  minHashes = Math.min(minHashes, last);
  const log = versionLog('https://registry.example.org/checkpoint', entries, longest, lines[longest]!, tree.inclusionProof(longest));

  const consistency = [entries - 1, entries - 100, entries - 1000, Math.floor(entries / 2), 1]
    .filter((from, i, all) => from > 0 && from < entries && all.indexOf(from) === i)
    .map((from) => ({
      from,
      to: entries,
      hashes: tree.consistencyProof(from).length,
      bytes: tree.consistencyProof(from).length * HASH_SIZE,
      tiles: tilesForRanges(consistencyRanges(from, entries), entries).length,
    }));
  const tiles = hashTiles(entries);
  return {
    entries,
    treeMs,
    entryBytes: Math.round(total / entries),
    inclusion: { maxHashes, minHashes, maxBytes: maxHashes * HASH_SIZE, logObjectBytes: JSON.stringify(log).length },
    consistency,
    checkpointBytes: checkpointNote({ origin: 'registry.example.org', size: entries, rootHash: tree.root(), extensions: [formatRetractionsLine(retractionsCommitment(new Uint8Array()))] }, generateKey('registry.example.org')).length,
    tiles: { files: tiles.length, bytes: tiles.reduce((n, tile) => n + tile.width * HASH_SIZE, 0) },
  };
}

/** The figures as a few lines for the bench's report. */
export function formatLogProofs(p: LogProofSize): string[] {
  const n = (x: number): string => x.toLocaleString('en-US');
  const c = p.consistency.map((x) => `${n(x.from)} -> ${n(x.to)}: ${x.hashes} hashes (${n(x.bytes)} bytes, from ${x.tiles} tiles)`);
  return [
    `Log of ${n(p.entries)} entries (signed ledger lines of ${n(p.entryBytes)} bytes): tree hashed in ${(p.treeMs / 1000).toFixed(2)} s; signed checkpoint ${n(p.checkpointBytes)} bytes`,
    `  inclusion proof: ${p.inclusion.minHashes}-${p.inclusion.maxHashes} hashes, at most ${n(p.inclusion.maxBytes)} bytes; the log object of agent.json ${n(p.inclusion.logObjectBytes)} bytes of JSON (entry included)`,
    `  consistency proofs: ${c.join('; ')}`,
    `  hash tiles: ${n(p.tiles.files)} files, ${n(p.tiles.bytes)} bytes`,
  ];
}
