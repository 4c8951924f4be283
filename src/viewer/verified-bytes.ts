/**
 * The bytes this page has already verified, by hash: the 3D view's poster (the preview image) is fetched and checked
 * like any representation, and an Inspect of the preview then reuses those bytes instead of downloading them again.
 */
import type { Representation } from '@aso-registry/core/format/types';
import { fetchBytes } from './fetch-bytes.ts';
import { verifyBytes } from './verify-bytes.ts';

/** Verified bytes of one page, shared by its inspections. */
export interface VerifiedBytes {
  /** The bytes of `rep` if they were verified (or are being fetched for verification) on this page. */
  get(rep: Representation): Promise<Uint8Array | undefined> | undefined;
  /** Records bytes that an inspection verified. */
  remember(rep: Representation, bytes: Uint8Array): void;
  /** Fetches and verifies `rep` from `url` once, without aborting (other inspections may be waiting for it). */
  load(rep: Representation, url: string): Promise<Uint8Array | undefined>;
}

/** A store of verified bytes for one page. */
export function verifiedBytes(): VerifiedBytes {
  const byHash = new Map<string, Promise<Uint8Array | undefined>>();
  return {
    get: (rep) => byHash.get(rep.hash),
    remember(rep, bytes) {
      if (!byHash.has(rep.hash)) byHash.set(rep.hash, Promise.resolve(bytes));
    },
    load(rep, url) {
      let pending = byHash.get(rep.hash);
      if (!pending) {
        pending = (async () => {
          const fetched = await fetchBytes(url, rep.byteLength);
          if (!fetched.ok) return undefined;
          return (await verifyBytes(fetched.bytes, rep)).ok ? fetched.bytes : undefined;
        })().catch(() => undefined);
        byHash.set(rep.hash, pending);
      }
      return pending;
    },
  };
}
