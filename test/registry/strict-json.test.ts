/** The strict reading of registry JSON files: what check and build both accept. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseStrictJson } from '../../src/registry/strict-json.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('parseStrictJson', () => {
  it('reads plain JSON to the value JSON.parse gives', () => {
    expect(parseStrictJson(bytes('{"name":"a","list":[1,{"x":null}],"s":"\\u00e9"}'))).toEqual({ value: { name: 'a', list: [1, { x: null }], s: 'é' } });
  });

  it('refuses a UTF-8 byte order mark, saying how to save the file', () => {
    expect(parseStrictJson(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{}')]))).toEqual({
      error: 'starts with a UTF-8 byte order mark (bytes EF BB BF); save the file as UTF-8 without a byte order mark',
    });
  });

  it('refuses bytes that are not UTF-8 and text that is not JSON', () => {
    expect(parseStrictJson(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ error: 'is not valid UTF-8' });
    expect(parseStrictJson(bytes('{"a":1,}'))).toMatchObject({ error: expect.stringMatching(/^is not valid JSON: /) });
  });

  it('refuses a key repeated in one object, with its pointer', () => {
    expect(parseStrictJson(bytes('{"name":"a","name":"b"}'))).toEqual({ pointer: '/name', error: 'repeats the key "name" in one object; a key may appear only once' });
    // An escaped spelling is the same key.
    expect(parseStrictJson(bytes('{"name":"a","\\u006eame":"b"}'))).toMatchObject({ pointer: '/name' });
    expect(parseStrictJson(bytes('{"provenance":{"list":[{},{"a/b":1,"a/b":2}]}}'))).toMatchObject({ pointer: '/provenance/list/1/a~1b' });
  });

  it('accepts the same key in different objects', () => {
    expect(parseStrictJson(bytes('[{"a":1},{"a":2,"b":{"a":3}}]'))).toEqual({ value: [{ a: 1 }, { a: 2, b: { a: 3 } }] });
  });

  it('refuses nesting deeper than the bound without overflowing the stack, even 100,000 levels', () => {
    const deep = `{"provenance":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const result = parseStrictJson(bytes(deep));
    expect(result).toMatchObject({ error: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels; flatten it` });
    expect((result as { pointer: string }).pointer).toBe(`/provenance${'/0'.repeat(MAX_JSON_DEPTH - 1)}`);
    const atBound = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseStrictJson(bytes(atBound))).toHaveProperty('value');
  });

  it('gives JSON.parse’s value for any JSON document within the depth bound (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseStrictJson(bytes(text))).toEqual({ value: JSON.parse(text) });
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it('finds a repeated key wherever it is put (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), fc.nat(), (dict, pick) => {
        const keys = Object.keys(dict);
        const key = keys[pick % keys.length]!;
        const text = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(dict[k])}`).join(',')},${JSON.stringify(key)}:0}`;
        expect(parseStrictJson(bytes(text))).toMatchObject({ error: `repeats the key ${JSON.stringify(key)} in one object; a key may appear only once` });
      }),
      { seed: 14, numRuns: 200 },
    );
  });
});
