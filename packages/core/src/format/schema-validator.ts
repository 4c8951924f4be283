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
type Check = (v: unknown, path: string, errors: Errors) => void;

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

const SURROGATE = /[\uD800-\uDFFF]/;
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

  /** The checks of one keyword of a schema, on a value of the keyword's type. */
  type Step = (v: never, path: string, errors: Errors) => void;
  const fail = (errors: Errors, instancePath: string, keyword: string, params: object, message: string): void => {
    errors.push({ instancePath, keyword, params, message });
  };
  const plans = new Map<Schema, Check>();

  /** A schema made once into its checks, keyword by keyword in Ajv's order; a schema reached again is the same plan. */
  function plan(s: Schema): Check {
    const known = plans.get(s);
    if (known) return known;
    const type = s.type as string | undefined;
    const groups: Array<[string, Step[]]> = [];
    for (const group of GROUPS) {
      const steps = Object.keys(KEYWORDS)
        .filter((keyword) => KEYWORDS[keyword] === group && hasOwn(s, keyword))
        .map((keyword) => step(s, keyword, s[keyword]));
      if (steps.length) groups.push([group, steps]);
    }
    // Ajv reports a wrong type in place of the keywords of that type, or first when the schema has none of them.
    const typeFirst = type !== undefined && !groups.some(([group]) => group === type);
    const check: Check = (v, path, errors) => {
      if (typeFirst && !isType(type, v)) fail(errors, path, 'type', { type }, `must be ${type}`);
      for (const [group, steps] of groups) {
        if (group !== '' && !isType(group, v)) {
          if (group === type) fail(errors, path, 'type', { type }, `must be ${type}`);
          continue;
        }
        for (const run of steps) (run as Check)(v, path, errors);
      }
    };
    plans.set(s, check);
    return check;
  }

  function step(s: Schema, keyword: string, k: unknown): Step {
    switch (keyword) {
      case '$ref': {
        const target = resolve(k, '');
        // Planned on first use: a schema may refer to itself.
        let check: Check | undefined;
        return (v: unknown, path, errors) => (check ??= plan(target))(v, path, errors);
      }
      case 'const':
        return (v: unknown, path, errors) => equal(v, k) || fail(errors, path, keyword, { allowedValue: k }, 'must be equal to constant');
      case 'minimum': {
        const limit = k as number;
        return (v: number, path, errors) => v < limit && fail(errors, path, keyword, { comparison: '>=', limit }, `must be >= ${limit}`);
      }
      case 'maxLength':
      case 'minLength': {
        const limit = k as number;
        const max = keyword === 'maxLength';
        const message = `must NOT have ${max ? 'more' : 'fewer'} than ${limit} characters`;
        return (v: string, path, errors) => {
          // Characters are code points, as Ajv counts them.
          const n = SURROGATE.test(v) ? [...v].length : v.length;
          if (max ? n > limit : n < limit) fail(errors, path, keyword, { limit }, message);
        };
      }
      case 'pattern': {
        const regex = patterns.get(k as string)!;
        return (v: string, path, errors) => regex.test(v) || fail(errors, path, keyword, { pattern: k }, `must match pattern "${String(k)}"`);
      }
      case 'format': {
        const test = formats[k as string]!;
        return (v: string, path, errors) => test(v) || fail(errors, path, keyword, { format: k }, `must match format "${String(k)}"`);
      }
      case 'minItems': {
        const limit = k as number;
        return (v: unknown[], path, errors) => v.length < limit && fail(errors, path, keyword, { limit }, `must NOT have fewer than ${limit} items`);
      }
      case 'uniqueItems':
        return k ? uniqueItems((s.items as Schema | undefined)?.type as string | undefined) : () => undefined;
      case 'items': {
        const each = plan(k as Schema);
        return (v: unknown[], path, errors) => v.forEach((item, i) => each(item, `${path}/${i}`, errors));
      }
      case 'required': {
        const names = k as string[];
        return (v: object, path, errors) => {
          for (const p of names) if (!hasOwn(v, p)) fail(errors, path, keyword, { missingProperty: p }, `must have required property '${p}'`);
        };
      }
      case 'additionalProperties': {
        const allowed = (s.properties ?? {}) as Schema;
        return (v: object, path, errors) => {
          for (const p of Object.keys(v)) if (!hasOwn(allowed, p)) fail(errors, path, keyword, { additionalProperty: p }, 'must NOT have additional properties');
        };
      }
      case 'properties': {
        const each = Object.entries(k as Schema).map(([p, sub]) => [p, `/${escapePointer(p)}`, plan(sub as Schema)] as const);
        return (v: Schema, path, errors) => {
          for (const [p, at, check] of each) if (hasOwn(v, p)) check(v[p], path + at, errors);
        };
      }
      default: {
        // dependentRequired
        const rules = Object.entries(k as Record<string, string[]>).filter(([, deps]) => deps.length > 0);
        return (v: object, path, errors) => {
          for (const [p, deps] of rules) {
            if (!hasOwn(v, p)) continue;
            const words = `must have ${deps.length === 1 ? 'property' : 'properties'} ${deps.join(', ')} when property ${p} is present`;
            for (const d of deps) if (!hasOwn(v, d)) fail(errors, path, keyword, { property: p, missingProperty: d, depsCount: deps.length, deps: deps.join(', ') }, words);
          }
        };
      }
    }
  }

  // Ajv's walk: from the end, comparing scalars of the items' type by value (`i` the earlier item, `j` the later),
  // anything else deeply (`i` the later item, `j` the earlier); only the first repeat is reported.
  function uniqueItems(itemType: string | undefined): Step {
    const scalar = itemType !== undefined && itemType !== 'object' && itemType !== 'array';
    return (items: unknown[], path, errors) => {
      const report = (i: number, j: number): void => fail(errors, path, 'uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
      for (let i = items.length; i-- > 0; ) {
        if (!scalar) {
          for (let j = i; j-- > 0; ) if (equal(items[i], items[j])) return report(i, j);
        } else if (isType(itemType, items[i])) {
          for (let j = i + 1; j < items.length; j++) if (items[j] === items[i]) return report(i, j);
        }
      }
    };
  }

  const check = plan(root);
  return (value) => {
    const errors: Errors = [];
    check(value, '', errors);
    return errors;
  };
}
