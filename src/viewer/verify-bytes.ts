/** Checks bytes against a representation's declared byte length, then its SHA-256 (WebCrypto). */
import { compareIntegrity, integrityFailure, type DeclaredIntegrity } from '../core/integrity.ts';
import { sriOf } from '../core/sri.ts';
import type { IntegrityResult } from '../core/types.ts';

/** The verdict on a set of bytes: the comparison, and which check failed with what text. */
export type Verification =
  | { ok: true; result: IntegrityResult }
  | { ok: false; reason: 'byte-length' | 'hash' | 'crypto'; detail: string; result?: IntegrityResult };

/** The failure text when SHA-256 cannot be computed in this page. */
export const NO_WEBCRYPTO =
  'SHA-256 cannot be computed here: WebCrypto is only available to pages served over https or from localhost';

/** Compares the bytes with what was declared: the byte length first, then the SHA-256. */
export async function verifyBytes(bytes: Uint8Array, declared: DeclaredIntegrity): Promise<Verification> {
  if (bytes.byteLength !== declared.byteLength) {
    const result = compareIntegrity(declared, { byteLength: bytes.byteLength, hash: '' });
    return { ok: false, reason: 'byte-length', detail: integrityFailure(result) ?? '', result };
  }
  if (!globalThis.crypto?.subtle) return { ok: false, reason: 'crypto', detail: NO_WEBCRYPTO };
  const result = compareIntegrity(declared, { byteLength: bytes.byteLength, hash: await sriOf(bytes) });
  const failure = integrityFailure(result);
  return failure === null ? { ok: true, result } : { ok: false, reason: 'hash', detail: failure, result };
}
