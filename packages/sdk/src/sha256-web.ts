/**
 * SHA-256 with WebCrypto, for browsers. `crypto.subtle` has no incremental digest, so the chunks are
 * kept until `digest()`; the caller bounds them (it stops reading past the declared byte length).
 */
import { sriFromDigest } from '@aso-registry/core/format/sri';
import type { Sha256 } from './sha256.ts';

/** A hash that collects the chunks and digests them at the end with `crypto.subtle`. */
export function webSha256(): Sha256 {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error('WebCrypto (crypto.subtle) is not available: browsers offer it only to pages served over https or from localhost');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    update(chunk) {
      chunks.push(chunk);
      size += chunk.byteLength;
    },
    async digest() {
      const all = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.byteLength;
      }
      chunks.length = 0;
      return sriFromDigest(new Uint8Array(await subtle.digest('SHA-256', all)));
    },
  };
}
