import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyBytes } from '../../src/viewer/verify-bytes.ts';

const sri = (b: Uint8Array): string => `sha256-${createHash('sha256').update(b).digest('base64')}`;
const data = new TextEncoder().encode('{"asset":{"version":"2.0"}}');

describe('verifyBytes', () => {
  it('accepts bytes of the declared length and hash', async () => {
    const v = await verifyBytes(data, { byteLength: data.byteLength, hash: sri(data) });
    expect(v.ok).toBe(true);
  });

  it('checks the byte length first, with expected and actual values', async () => {
    const v = await verifyBytes(data.slice(0, 10), { byteLength: data.byteLength, hash: sri(data) });
    expect(v).toMatchObject({ ok: false, reason: 'byte-length', detail: `byte length mismatch: expected ${data.byteLength}, got 10` });
  });

  it('then the SHA-256, with the declared and the computed hash', async () => {
    const changed = data.slice();
    changed[3] = changed[3]! ^ 1;
    const v = await verifyBytes(changed, { byteLength: data.byteLength, hash: sri(data) });
    expect(v).toMatchObject({ ok: false, reason: 'hash', detail: `hash mismatch: expected ${sri(data)}, got ${sri(changed)}` });
  });
});
