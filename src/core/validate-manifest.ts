import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import schema from './schema/aso-object-v0.1.schema.json' with { type: 'json' };
import type { Manifest } from './types.ts';
import { versionProblem } from './version.ts';

/** One thing wrong with a document: where (a JSON pointer) and what. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
// ajv-formats is CommonJS: its plugin is the module itself under Node and `.default` under some bundlers.
const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ?? formatsPlugin);
addFormats(ajv, ['date-time', 'uri']);
const validate = ajv.compile<Manifest>(schema);

/** The JSON Schema of aso/object/v0.1 (draft 2020-12). */
export const manifestSchema = schema;

function describe(error: ErrorObject): SchemaProblem {
  const pointer = error.instancePath || '';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer: `${pointer}/${String(p.missingProperty)}`, message: 'is required but missing' };
    case 'additionalProperties':
      return { pointer: `${pointer}/${String(p.additionalProperty)}`, message: 'is not an allowed property' };
    case 'const':
      return { pointer, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'uniqueItems':
      return { pointer, message: `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)` };
    case 'format':
      return {
        pointer,
        message:
          p.format === 'date-time'
            ? 'must be an RFC 3339 date-time with an offset or Z'
            : `must be a valid ${String(p.format)}`,
      };
    case 'pattern':
      return { pointer, message: `must match ${String(p.pattern)}` };
    default:
      return { pointer, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Validates a parsed manifest against aso/object/v0.1; an empty list means it is valid. */
export function manifestProblems(value: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (!validate(value)) {
    for (const error of validate.errors ?? []) {
      // The SemVer regex says little to a person; the version rule explains itself.
      if (error.instancePath === '/version' && error.keyword === 'pattern') continue;
      problems.push(describe(error));
    }
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'string') {
    const why = versionProblem(version);
    if (why) problems.push({ pointer: '/version', message: why });
  }
  return dedupe(problems);
}

function dedupe(problems: SchemaProblem[]): SchemaProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when the value is a valid manifest. */
export function isManifest(value: unknown): value is Manifest {
  return manifestProblems(value).length === 0;
}
