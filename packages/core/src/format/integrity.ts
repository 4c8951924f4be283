import type { IntegrityResult } from './types.ts';

/** What a file declares about itself. */
export interface DeclaredIntegrity {
  byteLength: number;
  hash: string;
}

/** Compares declared and actual byte length and hash. */
export function compareIntegrity(declared: DeclaredIntegrity, actual: DeclaredIntegrity): IntegrityResult {
  return {
    ok: declared.byteLength === actual.byteLength && declared.hash === actual.hash,
    byteLength: { expected: declared.byteLength, actual: actual.byteLength },
    hash: { expected: declared.hash, actual: actual.hash },
  };
}

/** One sentence on what failed, or null when the result is ok. */
export function integrityFailure(result: IntegrityResult): string | null {
  if (result.byteLength.expected !== result.byteLength.actual) {
    return `byte length mismatch: expected ${result.byteLength.expected}, got ${result.byteLength.actual}`;
  }
  if (result.hash.expected !== result.hash.actual) {
    return `hash mismatch: expected ${result.hash.expected}, got ${result.hash.actual}`;
  }
  return null;
}
