/**
 * The project's one JSON Schema validator (Ajv, draft 2020-12, strict) and the messages it gives people.
 * Every schema of the registry (the manifest, publication records, worlds) is compiled here.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

/** One thing wrong with a document: where (a JSON pointer) and what. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

/** Messages that replace Ajv's for a given `<pointer> <keyword>`, e.g. `/publisher minLength` (`*` for array indexes). */
export type ShapeMessages = Record<string, string>;

/**
 * The schemas compiled here are constants of this code, each checked against the draft 2020-12 meta-schema by
 * test/core/json-shape.test.ts, so they are not checked again at run time (`validateSchema: false`): compiling the
 * meta-schema took about 55 ms in every process and thread that validates (a build, a check, a render thread, the
 * SDK). Strict mode still refuses an unknown keyword.
 */
const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: false });
// ajv-formats is CommonJS: its plugin is the module itself under Node and `.default` under some bundlers.
const addFormats = (formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ?? formatsPlugin;
addFormats(ajv, ['date-time', 'uri']);

/** Compiles a schema into a function that lists every problem of a value (empty when it fits), without repeats. */
export function compileShape(schema: object, messages: ShapeMessages = {}): (value: unknown) => SchemaProblem[] {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    const seen = new Set<string>();
    return (validate.errors ?? [])
      .map((e) => describe(e, messages))
      .filter((p) => {
        const key = `${p.pointer}\u0000${p.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  };
}

function describe(error: ErrorObject, messages: ShapeMessages): SchemaProblem {
  const pointer = error.instancePath || '';
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return { pointer: `${pointer}/${String(p.missingProperty)}`, message: 'is required but missing' };
  if (error.keyword === 'additionalProperties') return { pointer: `${pointer}/${String(p.additionalProperty)}`, message: 'is not an allowed property' };
  const custom = messages[`${pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${error.keyword}`];
  if (custom !== undefined) return { pointer, message: custom };
  switch (error.keyword) {
    case 'const':
      return { pointer, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'uniqueItems':
      return { pointer, message: `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)` };
    case 'format':
      return { pointer, message: p.format === 'date-time' ? 'must be an RFC 3339 date-time with an offset or Z' : `must be a valid ${String(p.format)}` };
    case 'pattern':
      return { pointer, message: `must match ${String(p.pattern)}` };
    default:
      return { pointer, message: error.message ?? `fails ${error.keyword}` };
  }
}
