/** The two SHA-256 backends agree with each other and with node:crypto, however the bytes are split. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSha256 } from '../../packages/sdk/src/create-sha256.ts';
import { nodeSha256 } from '../../packages/sdk/src/sha256-node.ts';
import { webSha256 } from '../../packages/sdk/src/sha256-web.ts';
import { noiseBytes } from './support/fixture-site.ts';

function reference(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

function chunks(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

describe('sha256', () => {
  it('hashes each chunk as it arrives under Node (a chunk reused afterwards does not change the digest)', async () => {
    const chunk = new Uint8Array([1, 2, 3]);
    const expected = reference(new Uint8Array([1, 2, 3, 1, 2, 3]));
    const hash = createSha256();
    hash.update(chunk);
    hash.update(chunk);
    chunk.fill(9);
    expect(await hash.digest()).toBe(expected);
  });

  it('falls back to WebCrypto where the runtime has no node:crypto', async () => {
    const proc = process as unknown as { getBuiltinModule?: unknown };
    const original = proc.getBuiltinModule;
    proc.getBuiltinModule = undefined;
    try {
      expect(nodeSha256()).toBeUndefined();
      const hash = createSha256();
      const chunk = new Uint8Array([1, 2, 3]);
      hash.update(chunk);
      chunk.fill(9);
      // The web backend keeps its chunks until digest(): the reused buffer is what it hashes.
      expect(await hash.digest()).toBe(reference(new Uint8Array([9, 9, 9])));
    } finally {
      proc.getBuiltinModule = original;
    }
  });

  for (const [label, length, sizes] of [
    ['empty', 0, [1]],
    ['one chunk', 1000, [1000]],
    ['odd splits', 100_003, [1, 63, 64, 65, 4096, 7]],
    ['large chunks', 1_000_000, [65_536]],
  ] as const) {
    it(`gives the same SRI with both backends: ${label}`, async () => {
      const bytes = noiseBytes(length, length + 3);
      const expected = reference(bytes);
      for (const make of [nodeSha256, webSha256, createSha256]) {
        const hash = make()!;
        for (const chunk of chunks(bytes, [...sizes])) hash.update(chunk);
        expect(await hash.digest()).toBe(expected);
      }
    });
  }
});
