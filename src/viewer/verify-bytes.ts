/**
 * Checks bytes against a representation's declared byte length, then its SHA-256: WebCrypto, which digests in one call,
 * or for large files an incremental SHA-256 (hash-wasm, loaded only then) in slices, so that a progress bar can follow.
 */
import { compareIntegrity, integrityFailure, type DeclaredIntegrity } from '@aso-registry/core/format/integrity';
import { sriFromDigest, sriOf } from '@aso-registry/core/format/sri';
import type { IntegrityResult } from '@aso-registry/core/format/types';

/** The verdict on a set of bytes: the comparison, and which check failed with what text. */
export type Verification =
  | { ok: true; result: IntegrityResult }
  | { ok: false; reason: 'byte-length' | 'hash' | 'crypto'; detail: string; result?: IntegrityResult };

/** The failure text when SHA-256 cannot be computed in this page. */
const NO_WEBCRYPTO =
  'SHA-256 cannot be computed here: WebCrypto is only available to pages served over https or from localhost';

/** Files from this size on are hashed in slices with progress; below it WebCrypto is done before a bar would show. */
export const LARGE_FILE_BYTES = 16 * 1024 * 1024;

/** The size of one slice of a large file: a progress step, and a pause for the page to draw. */
const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/** Options of `verifyBytes`. */
export interface VerifyOptions {
  /** Called with the bytes hashed so far while a large file is hashed in slices. */
  onHashProgress?: (hashed: number) => void;
}

/** `sha256-<base64>` of the bytes, hashed slice by slice with a progress report and a pause between slices. */
export async function sha256InSlices(bytes: Uint8Array, onProgress: (hashed: number) => void, slice = HASH_SLICE_BYTES): Promise<string> {
  const { createSHA256 } = await import('hash-wasm');
  const hasher = await createSHA256();
  hasher.init();
  for (let at = 0; at < bytes.byteLength; at += slice) {
    const end = Math.min(at + slice, bytes.byteLength);
    hasher.update(bytes.subarray(at, end));
    onProgress(end);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return sriFromDigest(hasher.digest('binary'));
}

/** Compares the bytes with what was declared: the byte length first, then the SHA-256. */
export async function verifyBytes(bytes: Uint8Array, declared: DeclaredIntegrity, options: VerifyOptions = {}): Promise<Verification> {
  if (bytes.byteLength !== declared.byteLength) {
    const result = compareIntegrity(declared, { byteLength: bytes.byteLength, hash: '' });
    return { ok: false, reason: 'byte-length', detail: integrityFailure(result) ?? '', result };
  }
  // The same rule for every size: a page that has no WebCrypto is not a safe place to verify anything.
  if (!globalThis.crypto?.subtle) return { ok: false, reason: 'crypto', detail: NO_WEBCRYPTO };
  const large = options.onHashProgress !== undefined && bytes.byteLength >= LARGE_FILE_BYTES;
  const hash = large ? await sha256InSlices(bytes, options.onHashProgress!) : await sriOf(bytes);
  const result = compareIntegrity(declared, { byteLength: bytes.byteLength, hash });
  const failure = integrityFailure(result);
  return failure === null ? { ok: true, result } : { ok: false, reason: 'hash', detail: failure, result };
}
