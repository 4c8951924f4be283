/**
 * The build's view of the transparency log: the Merkle tree over `registry/ledger.jsonl` (one leaf per line, in order),
 * the checkpoint it commits to (with a line committing to the exact bytes of `registry/retractions.jsonl`), and each
 * version's inclusion proof for the `log` object of its documents (in the tree right after its own line, so that a
 * later publication never changes it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkpointOrigin, CHECKPOINT_PATH, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import { ledgerLines } from '@aso-registry/core/log/ledger';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { RETRACTIONS_FILE } from '@aso-registry/core/log/retractions';
import { formatRetractionsLine, retractionsCommitment } from '@aso-registry/core/log/retractions-commitment';
import { siteUrl } from '@aso-registry/core/format/paths';
import type { VerifierKey } from '@aso-registry/core/log/signed-note';
import { versionLog, type VersionLog } from '@aso-registry/core/log/version-log';
import { ledgerPath } from '../../registry/ledger-file.ts';
import { readOptionalText } from '../../io/read-optional-text.ts';

/** The log of a built site. */
export interface SiteLog {
  /** The ledger's lines, each a leaf. */
  lines: string[];
  tree: MerkleTree;
  checkpoint: Checkpoint;
  checkpointUrl: string;
  /** Leaf index by `<id>@<version>`. */
  leafOf: Map<string, number>;
}

const encoder = new TextEncoder();

/** The log's origin line: the name of the committed log key, else the registry URL without its scheme. */
export function logOrigin(registryUrl: string, logKey: VerifierKey | null): string {
  return logKey?.name ?? checkpointOrigin(registryUrl);
}

/**
 * The log over the ledger text (a checked ledger: one valid line per publication); its checkpoint commits to the exact
 * bytes of the retractions file (none: empty bytes), so that the log key signs the retractions too.
 */
export function siteLogOf(text: string, registryUrl: string, logKey: VerifierKey | null, retractions: Uint8Array = new Uint8Array()): SiteLog {
  return siteLogFromLines(ledgerLines(text).lines, registryUrl, logKey, retractions);
}

/** The log over the ledger's lines, each a leaf. */
function siteLogFromLines(lines: string[], registryUrl: string, logKey: VerifierKey | null, retractions: Uint8Array): SiteLog {
  const tree = MerkleTree.fromEntries(lines.map((l) => encoder.encode(l)));
  const leafOf = new Map<string, number>();
  lines.forEach((line, i) => {
    const { id, version } = JSON.parse(line) as { id: string; version: string };
    leafOf.set(`${id}@${version}`, i);
  });
  return {
    lines,
    tree,
    checkpoint: { origin: logOrigin(registryUrl, logKey), size: tree.size, rootHash: tree.root(), extensions: [formatRetractionsLine(retractionsCommitment(retractions))] },
    checkpointUrl: siteUrl(registryUrl, CHECKPOINT_PATH),
    leafOf,
  };
}

/** The log of the registry at `registryRoot`, or null when it keeps no ledger. */
export async function readSiteLog(registryRoot: string, registryUrl: string, logKey: VerifierKey | null): Promise<SiteLog | null> {
  const text = await readOptionalText(ledgerPath(registryRoot));
  return text === null ? null : siteLogOf(text, registryUrl, logKey, await readRetractionsBytes(registryRoot));
}

/** The exact bytes of `registry/retractions.jsonl` (the site serves them as they are), empty when there is none. */
async function readRetractionsBytes(registryRoot: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(join(registryRoot, RETRACTIONS_FILE)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Uint8Array();
    throw error;
  }
}

/**
 * The `log` object of `id@version`, or null when the site has no log; throws when the version has no leaf. Its proof is
 * for the tree of the ledger up to and including the version's line, so it depends on nothing published after it.
 */
export function versionLogOf(log: SiteLog | null, id: string, version: string): VersionLog | null {
  if (!log) return null;
  const index = log.leafOf.get(`${id}@${version}`);
  if (index === undefined) throw new Error(`${id}@${version} has no line in the ledger`);
  return versionLog(log.checkpointUrl, index + 1, index, log.lines[index]!, log.tree.inclusionProof(index, index + 1));
}
