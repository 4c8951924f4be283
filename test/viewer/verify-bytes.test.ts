import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LARGE_FILE_BYTES, sha256InSlices, verifyBytes } from '../../src/viewer/verify-bytes.ts';

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

  it('hashes a large file in slices, reporting each step up to the whole length, to the same digest', async () => {
    const big = new Uint8Array(LARGE_FILE_BYTES + 12345);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) & 0xff;
    const steps: number[] = [];
    const v = await verifyBytes(big, { byteLength: big.byteLength, hash: sri(big) }, { onHashProgress: (n) => steps.push(n) });
    expect(v.ok).toBe(true);
    expect(steps.length).toBeGreaterThan(2);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(big.byteLength);
    const changed = big.slice();
    changed[LARGE_FILE_BYTES] = changed[LARGE_FILE_BYTES]! ^ 1;
    expect(await verifyBytes(changed, { byteLength: big.byteLength, hash: sri(big) }, { onHashProgress: () => {} })).toMatchObject({ ok: false, reason: 'hash' });
  });

  it('gives the same SHA-256 in slices as in one go, whatever the slice', async () => {
    const steps: number[] = [];
    expect(await sha256InSlices(data, (n) => steps.push(n), 7)).toBe(sri(data));
    expect(steps.at(-1)).toBe(data.byteLength);
    expect(steps[0]).toBe(7);
  });
});
