/**
 * The log's files in the built site: `/checkpoint` (signed when the build has the log's private key), the C2SP
 * tlog-tiles hash tiles and entry bundles under `/tile/`, and the public keys (`/log.pub`, `/publishers/<name>.pub`).
 * Full tiles never change once written, so a rebuild leaves them alone.
 */
import { join } from 'node:path';
import { checkpointNote, CHECKPOINT_PATH } from '@aso-registry/core/log/checkpoint';
import type { SignerKey, VerifierKey } from '@aso-registry/core/log/signed-note';
import { entryBundle, entryTiles, hashTiles, tileData, tilePath, TILE_WIDTH } from '@aso-registry/core/log/tlog-tiles';
import { type RegistryKeys } from '../../registry/registry-keys.ts';
import type { OutputWriter } from '../output/output-writer.ts';
import type { SiteLog } from '../data/site-log.ts';
import { LOG_KEY_FILE } from '../../registry/registry-files.ts';
import { PUBLISHERS_DIR, PUBLISHER_KEY_EXT } from '@aso-registry/core/log/publication-signature';

/** What was written. */
export interface LogFiles {
  /** The tree size of the checkpoint. */
  size: number;
  /** `<name>+<key id>` of the key that signed the checkpoint, or null when it is unsigned. */
  signedBy: string | null;
  /** Files of the log written by this build (the rest were there, unchanged). */
  written: number;
}

/**
 * Checks that the signing key is the one whose public half the registry commits (`registry/log.pub`), so that a build
 * never publishes a checkpoint no client can verify. Throws a sentence saying what to do.
 */
export function checkSigningKey(signer: SignerKey | null, logKey: VerifierKey | null, source: string): void {
  if (!signer) return;
  if (!logKey) throw new Error(`${source} holds the key ${signer.name}+${signer.keyId}, but the registry has no ${LOG_KEY_FILE}: commit its public key, ${signer.text}, as registry/${LOG_KEY_FILE}`);
  if (signer.text !== logKey.text) {
    throw new Error(`${source} holds the key ${signer.name}+${signer.keyId}, but registry/${LOG_KEY_FILE} is ${logKey.name}+${logKey.keyId}: sign with the key of registry/${LOG_KEY_FILE}`);
  }
}

/** Writes the checkpoint, the tiles, the entry bundles and the public keys of `log` into the site. */
export async function writeLogFiles(log: SiteLog, keys: RegistryKeys, signer: SignerKey | null, registryRoot: string, writer: OutputWriter): Promise<LogFiles> {
  const writes: Array<Promise<boolean>> = [writer.write(CHECKPOINT_PATH, checkpointNote(log.checkpoint, signer))];
  for (const tile of hashTiles(log.tree.size)) writes.push(writer.write(tilePath(tile), tileData(log.tree, tile)));
  const encoder = new TextEncoder();
  for (const tile of entryTiles(log.tree.size)) {
    const start = tile.index * TILE_WIDTH;
    writes.push(writer.write(tilePath(tile), entryBundle(log.lines.slice(start, start + tile.width).map((l) => encoder.encode(l)))));
  }
  if (keys.logKey) writes.push(writer.copy(join(registryRoot, LOG_KEY_FILE), LOG_KEY_FILE));
  for (const name of keys.publishers.keys()) {
    const file = `${name}${PUBLISHER_KEY_EXT}`;
    writes.push(writer.copy(join(registryRoot, PUBLISHERS_DIR, file), `${PUBLISHERS_DIR}/${file}`));
  }
  const written = (await Promise.all(writes)).filter(Boolean).length;
  return { size: log.tree.size, signedBy: signer ? `${signer.name}+${signer.keyId}` : null, written };
}
