import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webSha256 } from '../../packages/sdk/src/sha256-web.ts';

const sri = (bytes: Uint8Array) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

describe('webSha256', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('digests the chunks in order with WebCrypto', async () => {
    const hash = webSha256();
    hash.update(new Uint8Array([1, 2]));
    hash.update(new Uint8Array([]));
    hash.update(new Uint8Array([3]));
    expect(await hash.digest()).toBe(sri(new Uint8Array([1, 2, 3])));
  });

  it('says why it cannot hash where WebCrypto is missing (a page not served over https)', () => {
    vi.stubGlobal('crypto', {});
    expect(() => webSha256()).toThrow('WebCrypto (crypto.subtle) is not available: browsers offer it only to pages served over https or from localhost');
  });
});
