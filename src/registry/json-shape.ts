/** Small JSON Schema checks for the registry's own records (publication.json, worlds), with messages for people. */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import type { SchemaProblem } from '../core/validate-manifest.ts';

const ajv = new Ajv2020({ strict: true, allErrors: true });
// ajv-formats is CommonJS: its plugin is the module itself under Node and `.default` under some bundlers.
const addFormats = (formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ?? formatsPlugin;
addFormats(ajv, ['date-time']);

/** Messages that replace ajv's for a given `<pointer> <keyword>`, e.g. `/publisher minLength`. */
export type ShapeMessages = Record<string, string>;

/** Compiles a schema into a function that lists every problem of a value (empty when it fits). */
export function compileShape(schema: object, messages: ShapeMessages = {}): (value: unknown) => SchemaProblem[] {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => describe(e, messages));
  };
}

function describe(error: ErrorObject, messages: ShapeMessages): SchemaProblem {
  const at = error.instancePath || '';
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return { pointer: `${at}/${String(p.missingProperty)}`, message: 'is required but missing' };
  if (error.keyword === 'additionalProperties') return { pointer: `${at}/${String(p.additionalProperty)}`, message: 'is not an allowed property' };
  const custom = messages[`${at.replace(/\/\d+(?=\/|$)/g, '/*')} ${error.keyword}`];
  if (custom) return { pointer: at, message: custom };
  if (error.keyword === 'format' && p.format === 'date-time') return { pointer: at, message: 'must be an RFC 3339 date-time with an offset or Z' };
  return { pointer: at, message: error.message ?? `fails ${error.keyword}` };
}
