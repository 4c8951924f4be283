import { shapeCheck, type SchemaProblem } from './json-shape.ts';
import manifestSchema from './schema/aso-object-v0.1.schema.json' with { type: 'json' };
import { schemaValidator } from './schema-validator.ts';
import type { Manifest } from './types.ts';
import { versionProblem } from './version.ts';

export type { SchemaProblem } from './json-shape.ts';

const shape = shapeCheck(schemaValidator(manifestSchema));

/** Validates a parsed manifest against aso/object/v0.1; an empty list means it is valid. */
export function manifestProblems(value: unknown): SchemaProblem[] {
  // The SemVer regex says little to a person; the version rule below explains itself.
  const problems = shape(value).filter((p) => !(p.pointer === '/version' && p.message.startsWith('must match')));
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'string') {
    const why = versionProblem(version);
    if (why) problems.push({ pointer: '/version', message: why });
  }
  return problems;
}

/** True when the value is a valid manifest. */
export function isManifest(value: unknown): value is Manifest {
  return manifestProblems(value).length === 0;
}
