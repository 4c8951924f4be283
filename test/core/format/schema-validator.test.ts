/**
 * `schemaValidator` against Ajv (draft 2020-12, strict, all errors, ajv-formats): the same errors, in the same order,
 * for thousands of documents made by breaking the sample registry's manifests, publication records and worlds.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { ShapeError } from '@aso-registry/core/format/json-shape';
import { schemaValidator } from '@aso-registry/core/format/schema-validator';
import { SHAPE_SCHEMAS } from '@aso-registry/core/format/shape-schemas';
import { repoRoot } from '../../support/build-site.ts';

function ajvValidator(schema: object): (value: unknown) => ShapeError[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv, ['date-time', 'uri']);
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map(({ instancePath, keyword, params, message }: ErrorObject) => ({ instancePath, keyword, params, message })));
}

/** A deterministic stream of numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  null, true, 0, -1, 1.5, 2 ** 53, '', 'x', ' ', 'é', '😀', 'a/b~c', 'sha256-abc=', '2025-02-30T10:00:00Z', '2025-02-14T10:02:11',
  '2025-02-14t10:02:11+01:00', 'https://example.org/a b', 'models/chair.glb', 'https://[::1]/x.glb', 'urn:x', [], [1], ['a', 'a'], {}, { x: 1 },
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside `doc`, the root included. */
function paths(doc: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  const inner = Array.isArray(doc)
    ? doc.flatMap((v, i) => paths(v, [...at, i]))
    : doc && typeof doc === 'object'
      ? Object.entries(doc).flatMap(([k, v]) => paths(v, [...at, k]))
      : [];
  return [at, ...inner];
}

/** `doc` with the value at `path` replaced (or, with `undefined`, removed). */
function changed(doc: Json, path: Array<string | number>, value: unknown): Json {
  if (path.length === 0) return value as Json;
  const copy = structuredClone(doc) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = value as Json;
  return copy;
}

/** Broken variants of `doc`: each path given each odd value, removed, or given an extra property; then pairs of these. */
function variants(doc: Json, seed: number): Json[] {
  const all = paths(doc);
  const once: Json[] = [];
  for (const path of all) {
    for (const value of [...ODD_VALUES, undefined]) once.push(changed(doc, path, value));
    const at = path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k]!, doc);
    if (at && typeof at === 'object' && !Array.isArray(at)) once.push(changed(doc, [...path, 'extra~/key'], 1));
  }
  const next = random(seed);
  const twice: Json[] = [];
  for (let n = 0; n < 600; n++) {
    const base = once[Math.floor(next() * once.length)]!;
    const inside = paths(base);
    const path = inside[Math.floor(next() * inside.length)]!;
    twice.push(changed(base, path, ODD_VALUES[Math.floor(next() * ODD_VALUES.length)]));
  }
  return [doc, ...once, ...twice];
}

async function sampleDocuments(): Promise<{ manifest: Json[]; publication: Json[]; world: Json[] }> {
  const objects = join(repoRoot, 'registry', 'objects');
  const manifest: Json[] = [];
  const publication: Json[] = [];
  for (const id of await readdir(objects)) {
    for (const version of await readdir(join(objects, id, 'versions'))) {
      const dir = join(objects, id, 'versions', version);
      manifest.push(JSON.parse(await readFile(join(dir, 'aso.object.json'), 'utf8')));
      publication.push(JSON.parse(await readFile(join(dir, 'publication.json'), 'utf8')));
    }
  }
  const worlds = join(repoRoot, 'registry', 'worlds');
  const world = await Promise.all((await readdir(worlds)).map(async (f) => JSON.parse(await readFile(join(worlds, f), 'utf8'))));
  // A signed record, so that keyId and signature are broken too.
  publication.push({ ...(publication[0] as object), keyId: '0a1b2c3d', signature: `${'A'.repeat(86)}==` });
  return { manifest, publication, world };
}

describe('schemaValidator', () => {
  it('reports what Ajv reports, error for error, on broken copies of every sample document', async () => {
    const samples = await sampleDocuments();
    let compared = 0;
    for (const name of ['manifest', 'publication', 'world'] as const) {
      const ours = schemaValidator(SHAPE_SCHEMAS[name]!);
      const ajv = ajvValidator(SHAPE_SCHEMAS[name]!);
      // The first and last of each (the last record is signed): every path of each kind, in a bounded run.
      const docs = name === 'world' ? samples.world : [samples[name][0]!, samples[name].at(-1)!];
      docs.forEach((doc, d) => {
        for (const value of variants(doc as Json, d + 1)) {
          const [a, b] = [ours(value), ajv(value)];
          if (JSON.stringify(a) !== JSON.stringify(b)) expect(a, `${name} ${JSON.stringify(value)}`).toEqual(b);
          compared++;
        }
      });
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it('reads each keyword as Ajv does, in the order Ajv reports them', () => {
    const schema = {
      $defs: { count: { type: 'integer', minimum: 0 } },
      type: 'object',
      required: ['name', 'n'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' },
        n: { $ref: '#/$defs/count' },
        kind: { const: 'k' },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } },
        boxes: { type: 'array', uniqueItems: true, items: { type: 'object' } },
        a: { type: 'boolean' },
        b: { type: 'null' },
      },
      dependentRequired: { a: ['b'] },
    };
    const check = (value: unknown): unknown => schemaValidator(schema)(value).map((e) => `${e.instancePath} ${e.keyword} ${e.message}`);
    expect(check({ name: 'ab', n: 0 })).toEqual([]);
    expect(check({ 'x/y': 1, name: 'ABCD', n: -1.5, kind: 'j', when: '2025-02-29T00:00:00Z', tags: ['a', 'b', 'a'], boxes: [{}, { x: 1 }, {}], a: true })).toEqual([
      ' additionalProperties must NOT have additional properties',
      '/name maxLength must NOT have more than 3 characters',
      '/name pattern must match pattern "^[a-z]+$"',
      '/n type must be integer',
      '/n minimum must be >= 0',
      '/kind const must be equal to constant',
      '/when format must match format "date-time"',
      '/tags uniqueItems must NOT have duplicate items (items ## 2 and 0 are identical)',
      '/boxes uniqueItems must NOT have duplicate items (items ## 0 and 2 are identical)',
      ' dependentRequired must have property b when property a is present',
    ]);
    expect(check([])).toEqual([' type must be object']);
    expect(check({ name: '😀😀' })).toEqual([" required must have required property 'n'", '/name pattern must match pattern "^[a-z]+$"']);
  });

  it('refuses a schema with a keyword, or a form of one, that it does not read, naming where', () => {
    expect(() => schemaValidator({ type: 'string', minimumLength: 3 })).toThrow('#: unknown keyword: "minimumLength"');
    expect(() => schemaValidator({ properties: { name: { type: ['string', 'null'] } } })).toThrow('#/properties/name/type: ["string","null"] is not read here');
    expect(() => schemaValidator({ type: 'string', format: 'email' })).toThrow('#/format: "email" is not read here');
    expect(() => schemaValidator({ additionalProperties: { type: 'string' } })).toThrow('#/additionalProperties: {"type":"string"} is not read here');
    expect(() => schemaValidator({ type: 'string', pattern: '(' })).toThrow(SyntaxError);
    expect(() => schemaValidator({ items: { $ref: '#/$defs/missing' } })).toThrow('#/items/$ref: "#/$defs/missing" does not name a schema in this one');
  });
});
