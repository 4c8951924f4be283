/**
 * The messages people get from the project's JSON Schema validators (`schema-validator.ts`, which reports what Ajv
 * would): this turns their errors into problems a person can act on.
 */

/** One thing wrong with a document: where (a JSON pointer) and what. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

/** Messages that replace Ajv's for a given `<pointer> <keyword>`, e.g. `/publisher minLength` (`*` for array indexes). */
export type ShapeMessages = Record<string, string>;

/** One error of a validator, as Ajv words it. */
export interface ShapeError {
  instancePath: string;
  keyword: string;
  params: object;
  message?: string;
}

/** A validator: the errors of a value, none when it fits. */
export type ShapeValidator = (value: unknown) => ShapeError[];

/** A function that lists every problem of a value (empty when it fits) by `validate`, without repeats. */
export function shapeCheck(validate: ShapeValidator, messages: ShapeMessages = {}): (value: unknown) => SchemaProblem[] {
  return (value) => {
    const seen = new Set<string>();
    return validate(value)
      .map((e) => describe(e, messages))
      .filter((p) => {
        const key = `${p.pointer}\u0000${p.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  };
}

function describe(error: ShapeError, messages: ShapeMessages): SchemaProblem {
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
