/** An incremental SHA-256 that yields an SRI string: Node's own hash where the platform has it, else WebCrypto. */
import { nodeSha256 } from './sha256-node.ts';
import { webSha256 } from './sha256-web.ts';

/** Bytes go in chunk by chunk; `digest()` gives `sha256-<base64>`. */
export interface Sha256 {
  update(chunk: Uint8Array): void;
  digest(): Promise<string>;
}

/** A fresh hash for this platform. */
export function createSha256(): Sha256 {
  return nodeSha256() ?? webSha256();
}
