import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../../packages/sdk/src/sha256-node.ts';

describe('nodeSha256', () => {
  it('streams chunks into node:crypto and gives the SRI of the digest', async () => {
    const hash = nodeSha256()!;
    const chunk = new TextEncoder().encode('abc');
    hash.update(chunk);
    chunk.fill(0);
    hash.update(new TextEncoder().encode('def'));
    expect(await hash.digest()).toBe(`sha256-${createHash('sha256').update('abcdef').digest('base64')}`);
  });

  it('is undefined where the runtime has no process.getBuiltinModule, or it has no node:crypto', () => {
    const proc = process as unknown as { getBuiltinModule?: unknown };
    const original = proc.getBuiltinModule;
    try {
      proc.getBuiltinModule = undefined;
      expect(nodeSha256()).toBeUndefined();
      proc.getBuiltinModule = () => undefined;
      expect(nodeSha256()).toBeUndefined();
    } finally {
      proc.getBuiltinModule = original;
    }
  });
});
