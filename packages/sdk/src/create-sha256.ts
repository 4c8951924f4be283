/** Picks the SHA-256 of this platform: Node's own streaming hash where the runtime has it, else WebCrypto. */
import type { Sha256 } from './sha256.ts';
import { nodeSha256 } from './sha256-node.ts';
import { webSha256 } from './sha256-web.ts';

/** A fresh hash for this platform. */
export function createSha256(): Sha256 {
  return nodeSha256() ?? webSha256();
}
