import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { shapeCheck, type ShapeMessages } from '@aso-registry/core/format/json-shape';
import { SHAPE_SCHEMAS } from '@aso-registry/core/format/shape-schemas';
import { schemaValidator } from '@aso-registry/core/format/schema-validator';

const shapeOf = (schema: object, messages?: ShapeMessages): ((value: unknown) => unknown) => shapeCheck(schemaValidator(schema), messages);

const person = {
  type: 'object',
  required: ['name', 'born'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    born: { type: 'string', format: 'date-time' },
    site: { type: 'string', format: 'uri' },
    kind: { const: 'person' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    tags: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 2 } },
  },
};

describe('shapeCheck', () => {
  const check = shapeOf(person);

  it('finds nothing wrong with a value that fits', () => {
    expect(check({ name: 'Ada', born: '1815-12-10T00:00:00Z', site: 'https://example.org/', kind: 'person', code: 'ADA', tags: ['ab', 'cd'] })).toEqual([]);
  });

  it('names a missing property and an unknown one by their own pointer', () => {
    expect(check({ name: 'Ada', age: 36 })).toEqual([
      { pointer: '/born', message: 'is required but missing' },
      { pointer: '/age', message: 'is not an allowed property' },
    ]);
  });

  it('lists every problem at once, in words a person can act on', () => {
    expect(check({ name: 'Ada', born: '1815-12-10', site: 'not a uri', kind: 'robot', code: 'ada', tags: ['ab', 'ab'] })).toEqual([
      { pointer: '/born', message: 'must be an RFC 3339 date-time with an offset or Z' },
      { pointer: '/site', message: 'must be a valid uri' },
      { pointer: '/kind', message: 'must be "person"' },
      { pointer: '/code', message: 'must match ^[A-Z]{3}$' },
      { pointer: '/tags', message: expect.stringMatching(/^must not repeat items \(items (0 and 1|1 and 0) are equal\)$/) },
    ]);
  });

  it("falls back to Ajv's own message for other keywords", () => {
    expect(check({ name: '', born: '2020-01-01T00:00:00+02:00' })).toEqual([{ pointer: '/name', message: 'must NOT have fewer than 1 characters' }]);
    expect(shapeOf({ type: 'object' })([])).toEqual([{ pointer: '', message: 'must be object' }]);
  });

  it('uses a custom message for a pointer and keyword, with * standing for any array index', () => {
    const custom = shapeOf(person, { '/name minLength': 'must not be empty', '/tags/* minLength': 'must have two letters or more' });
    expect(custom({ name: '', born: '2020-01-01T00:00:00Z', tags: ['ok', 'x', 'fine', 'y'] })).toEqual([
      { pointer: '/name', message: 'must not be empty' },
      { pointer: '/tags/1', message: 'must have two letters or more' },
      { pointer: '/tags/3', message: 'must have two letters or more' },
    ]);
  });

  it('reports the same problem once', () => {
    const twice = shapeOf({ type: 'string', minLength: 2, pattern: '^[a-z]+$' }, { ' minLength': 'must be a word', ' pattern': 'must be a word' });
    expect(twice('A')).toEqual([{ pointer: '', message: 'must be a word' }]);
  });
});

describe('the registry\'s schemas', () => {
  const meta = new Ajv2020({ strict: true });

  it('are each a valid draft 2020-12 schema', () => {
    for (const [name, schema] of Object.entries(SHAPE_SCHEMAS)) {
      expect(meta.validateSchema(schema), `${name}: ${meta.errorsText(meta.errors)}`).toBe(true);
    }
  });

  it('would be caught here if one were not', () => {
    expect(meta.validateSchema({ type: 'object', properties: { name: { type: 'string', minLength: '1' } } })).toBe(false);
    expect(meta.errorsText(meta.errors)).toContain('minLength');
  });
});
