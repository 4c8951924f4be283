/**
 * SHA-256 under Node (and other runtimes with `process.getBuiltinModule`): hashes each chunk as it
 * arrives, so memory stays flat. Nothing is imported: in a browser `process` is absent and this returns undefined.
 */
import { sriFromDigest } from '@aso-registry/core/format/sri';
import type { Sha256 } from './sha256.ts';

interface NodeHash {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}

interface NodeProcess {
  getBuiltinModule?: (id: string) => { createHash?: (algorithm: string) => NodeHash } | undefined;
}

/** A streaming hash from `node:crypto`, or undefined where the runtime has none. */
export function nodeSha256(): Sha256 | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (typeof proc?.getBuiltinModule !== 'function') return undefined;
  const crypto = proc.getBuiltinModule('node:crypto');
  if (typeof crypto?.createHash !== 'function') return undefined;
  const hash = crypto.createHash('sha256');
  return {
    update: (chunk) => void hash.update(chunk),
    digest: async () => sriFromDigest(new Uint8Array(hash.digest())),
  };
}
