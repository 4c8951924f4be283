import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assertIntegrityTarget, checkResponse } from '../../packages/sdk/src/check-integrity.ts';
import { NetworkError } from '../../packages/sdk/src/errors.ts';

const sri = (bytes: Uint8Array) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
const bytes = new TextEncoder().encode('the bytes of a mesh');
const target = { url: 'https://registry.test/mesh.glb', byteLength: bytes.length, hash: sri(bytes) };

/** A response whose body arrives in the given chunks, counting how many chunks were pulled. */
function chunked(chunks: Uint8Array[], after?: Error): { response: Response; pulled: () => number } {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else if (after) controller.error(after);
      else controller.close();
    },
  });
  return { response: new Response(body), pulled: () => i };
}

describe('checkResponse', () => {
  it('passes bytes of the declared length and hash, however they are split', async () => {
    const { response } = chunked([bytes.subarray(0, 3), bytes.subarray(3, 4), bytes.subarray(4)]);
    expect(await checkResponse(response, target.url, target)).toEqual({
      ok: true,
      byteLength: { expected: bytes.length, actual: bytes.length },
      hash: { expected: target.hash, actual: target.hash },
      url: target.url,
      complete: true,
    });
  });

  it('gives the actual length and hash of truncated or tampered bytes', async () => {
    const short = bytes.subarray(0, 5);
    expect(await checkResponse(new Response(short), target.url, target)).toMatchObject({ ok: false, complete: true, byteLength: { actual: 5 }, hash: { actual: sri(short) } });
    const tampered = Uint8Array.from(bytes, (b, i) => (i === 0 ? b ^ 1 : b));
    expect(await checkResponse(new Response(tampered), target.url, target)).toMatchObject({ ok: false, byteLength: { actual: bytes.length }, hash: { actual: sri(tampered) } });
  });

  it('stops reading once more bytes than declared have arrived', async () => {
    const chunks = Array.from({ length: 50 }, () => bytes);
    const { response, pulled } = chunked(chunks);
    const result = await checkResponse(response, target.url, target);
    expect(result).toMatchObject({ ok: false, complete: false, byteLength: { expected: bytes.length, actual: 2 * bytes.length } });
    expect(result.hash.actual).toBe(sri(new Uint8Array([...bytes, ...bytes])));
    expect(pulled()).toBeLessThan(5);
  });

  it('accepts an empty file with an empty body', async () => {
    const empty = new Uint8Array();
    expect(await checkResponse(new Response(null), 'u', { url: 'u', byteLength: 0, hash: sri(empty) })).toMatchObject({ ok: true, complete: true });
  });

  it('says after how many bytes reading failed, as a NetworkError with the status', async () => {
    const { response } = chunked([bytes], new Error('connection reset'));
    const error = await checkResponse(response, target.url, target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 200, message: `reading ${target.url} failed after ${bytes.length} bytes: connection reset` });
  });
});

describe('checkResponse when aborted', () => {
  it('lets the abort through as it is, not as a network failure', async () => {
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const { response } = chunked([bytes], reason);
    controller.abort(reason);
    expect(await checkResponse(response, target.url, target, controller.signal).catch((e: unknown) => e)).toBe(reason);
  });
});

describe('assertIntegrityTarget', () => {
  it('accepts a representation and names the field that cannot be checked', () => {
    expect(() => assertIntegrityTarget(target)).not.toThrow();
    const cases: Array<[unknown, string]> = [
      [null, 'checkIntegrity: representation must be an object with url, byteLength and hash'],
      [{ ...target, url: '' }, 'checkIntegrity: representation.url must be a URL, got ""'],
      [{ ...target, byteLength: 1.5 }, 'checkIntegrity: representation.byteLength must be a non-negative integer, got 1.5'],
      [{ ...target, byteLength: -1 }, 'checkIntegrity: representation.byteLength must be a non-negative integer, got -1'],
      [{ ...target, hash: 'sha512-abc' }, 'checkIntegrity: representation.hash must be sha256-<base64 of 32 bytes>, got "sha512-abc"'],
    ];
    for (const [value, message] of cases) expect(() => assertIntegrityTarget(value as typeof target)).toThrow(new TypeError(message));
  });
});
