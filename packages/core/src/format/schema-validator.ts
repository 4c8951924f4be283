/**
 * A JSON Schema (draft 2020-12) validator for the keywords the registry's schemas use, read from the schema itself:
 * no code is generated or compiled, so it weighs little in a browser. It reports what Ajv (strict, all errors) reports,
 * error for error and in the same order; a schema with any other keyword is refused when the validator is made.
 */
import { jsonEqual as equal } from './json-equal.ts';
import type { ShapeError, ShapeValidator } from './json-shape.ts';
import { SCHEMA_FORMATS, type FormatCheck } from './schema-formats.ts';

type Schema = { readonly [keyword: string]: unknown };
type Errors = ShapeError[];

/** The keywords this validator reads, by the type of value they apply to ('' for any value). */
const KEYWORDS: Readonly<Record<string, string>> = {
  $ref: '',
  const: '',
  minimum: 'number',
  maxLength: 'string',
  minLength: 'string',
  pattern: 'string',
  format: 'string',
  minItems: 'array',
  uniqueItems: 'array',
  items: 'array',
  required: 'object',
  additionalProperties: 'object',
  properties: 'object',
  dependentRequired: 'object',
};
const NOTES = ['$schema', '$id', '$defs', '$comment', 'title', 'description', 'type'];
const GROUPS = ['', 'number', 'string', 'array', 'object'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function isType(type: string, v: unknown): boolean {
  switch (type) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'null':
      return v === null;
    default:
      return typeof v === type;
  }
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A validator of `schema`: the list of what is wrong with a value (empty when it fits), each as Ajv words it.
 * Throws when the schema uses a keyword, or a form of one, that this does not read.
 */
export function schemaValidator(schema: object, formats: Readonly<Record<string, FormatCheck>> = SCHEMA_FORMATS): ShapeValidator {
  const root = schema as Schema;
  const patterns = new Map<string, RegExp>();

  function resolve(ref: unknown, at: string): Schema {
    const target = typeof ref === 'string' && ref.startsWith('#')
      ? ref.slice(1).split('/').slice(1).reduce<unknown>((s, key) => (isObject(s) ? s[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root)
      : undefined;
    if (!isObject(target)) throw new Error(`${at}/$ref: ${JSON.stringify(ref)} does not name a schema in this one`);
    return target;
  }

  // Refuses a keyword, or a form of one, that this would not read as Ajv does. The keywords' values are the
  // meta-schema's business: the registry's schemas are checked against it in the tests.
  function inspect(s: Schema, at: string): void {
    for (const [keyword, v] of Object.entries(s)) {
      const where = `${at}/${keyword}`;
      if (!hasOwn(KEYWORDS, keyword) && !NOTES.includes(keyword)) throw new Error(`${at}: unknown keyword: "${keyword}"`);
      const unread = (keyword === 'type' && !TYPES.includes(v as string)) || (keyword === 'additionalProperties' && v !== false) || (keyword === 'format' && !hasOwn(formats, v as string));
      if (unread) throw new Error(`${where}: ${JSON.stringify(v)} is not read here`);
      if (keyword === 'pattern') patterns.set(v as string, new RegExp(v as string, 'u'));
      if (keyword === '$ref') resolve(v, at);
      if (keyword === 'items') inspect(v as Schema, where);
      if (keyword === 'properties' || keyword === '$defs') for (const [name, sub] of Object.entries(v as Schema)) inspect(sub as Schema, `${where}/${name}`);
    }
  }
  inspect(root, '#');

  function check(s: Schema, v: unknown, path: string, errors: Errors): void {
    const fail = (keyword: string, params: object, message: string): void => {
      errors.push({ instancePath: path, keyword, params, message });
    };
    const type = s.type as string | undefined;
    const typeError = (): void => fail('type', { type }, `must be ${type}`);
    const has = (group: string): boolean => Object.keys(s).some((k) => KEYWORDS[k] === group && hasOwn(KEYWORDS, k));
    // Ajv reports a wrong type in place of the keywords of that type, or first when the schema has none of them.
    const typeHasKeywords = type !== undefined && GROUPS.includes(type) && type !== '' && has(type);
    if (type !== undefined && !typeHasKeywords && !isType(type, v)) typeError();
    for (const group of GROUPS) {
      if (!has(group)) continue;
      if (group !== '' && !isType(group, v)) {
        if (group === type) typeError();
        continue;
      }
      for (const keyword of Object.keys(KEYWORDS)) if (KEYWORDS[keyword] === group && hasOwn(s, keyword)) apply(keyword, s[keyword]);
    }

    function apply(keyword: string, k: unknown): void {
      switch (keyword) {
        case '$ref':
          return check(resolve(k, ''), v, path, errors);
        case 'const':
          if (!equal(v, k)) fail(keyword, { allowedValue: k }, 'must be equal to constant');
          return;
        case 'minimum':
          if ((v as number) < (k as number)) fail(keyword, { comparison: '>=', limit: k }, `must be >= ${String(k)}`);
          return;
        case 'maxLength':
        case 'minLength': {
          // Characters are code points, as Ajv counts them.
          const n = [...(v as string)].length;
          const max = keyword === 'maxLength';
          if (max ? n > (k as number) : n < (k as number)) fail(keyword, { limit: k }, `must NOT have ${max ? 'more' : 'fewer'} than ${String(k)} characters`);
          return;
        }
        case 'pattern':
          if (!patterns.get(k as string)!.test(v as string)) fail(keyword, { pattern: k }, `must match pattern "${String(k)}"`);
          return;
        case 'format':
          if (!formats[k as string]!(v as string)) fail(keyword, { format: k }, `must match format "${String(k)}"`);
          return;
        case 'minItems':
          if ((v as unknown[]).length < (k as number)) fail(keyword, { limit: k }, `must NOT have fewer than ${String(k)} items`);
          return;
        case 'uniqueItems':
          if (k) uniqueItems(v as unknown[]);
          return;
        case 'items':
          (v as unknown[]).forEach((item, i) => check(k as Schema, item, `${path}/${i}`, errors));
          return;
        case 'required':
          for (const p of k as string[]) if (!hasOwn(v as object, p)) fail(keyword, { missingProperty: p }, `must have required property '${p}'`);
          return;
        case 'additionalProperties': {
          const known = (s.properties ?? {}) as Schema;
          for (const p of Object.keys(v as object)) if (!hasOwn(known, p)) fail(keyword, { additionalProperty: p }, 'must NOT have additional properties');
          return;
        }
        case 'properties':
          for (const [p, sub] of Object.entries(k as Schema)) if (hasOwn(v as object, p)) check(sub as Schema, (v as Schema)[p], `${path}/${escapePointer(p)}`, errors);
          return;
        case 'dependentRequired':
          for (const [p, deps] of Object.entries(k as Record<string, string[]>)) {
            if (!deps.length || !hasOwn(v as object, p)) continue;
            const words = `must have ${deps.length === 1 ? 'property' : 'properties'} ${deps.join(', ')} when property ${p} is present`;
            for (const d of deps) if (!hasOwn(v as object, d)) fail(keyword, { property: p, missingProperty: d, depsCount: deps.length, deps: deps.join(', ') }, words);
          }
          return;
      }
    }

    // Ajv's walk: from the end, comparing scalars of the items' type by value (`i` the earlier item, `j` the later),
    // anything else deeply (`i` the later item, `j` the earlier); only the first repeat is reported.
    function uniqueItems(items: unknown[]): void {
      const itemType = (s.items as Schema | undefined)?.type as string | undefined;
      const scalar = itemType !== undefined && itemType !== 'object' && itemType !== 'array';
      const report = (i: number, j: number): void => fail('uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
      for (let i = items.length; i-- > 0; ) {
        if (!scalar) {
          for (let j = i; j-- > 0; ) if (equal(items[i], items[j])) return report(i, j);
        } else if (isType(itemType, items[i])) {
          for (let j = i + 1; j < items.length; j++) if (items[j] === items[i]) return report(i, j);
        }
      }
    }
  }

  return (value) => {
    const errors: Errors = [];
    check(root, value, '', errors);
    return errors;
  };
}
