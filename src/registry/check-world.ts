/** The rules of a world file, `registry/worlds/<world-id>.json`. */
import type { SchemaProblem } from '@aso-registry/core/format/json-shape';
import { shapeCheck } from '@aso-registry/core/format/json-shape';
import { OBJECT_ID_PATTERN } from '@aso-registry/core/format/object-id';
import { schemaValidator } from '@aso-registry/core/format/schema-validator';
import { WORLD_SCHEMA } from '@aso-registry/core/format/shape-schemas';

const shape = shapeCheck(
  schemaValidator(WORLD_SCHEMA),
  {
    ' type': 'must be a JSON object',
    '/id pattern': `must match ${OBJECT_ID_PATTERN}`,
    '/name minLength': 'must not be empty',
    '/objects/* type': 'must be an object { "id", "version" }',
  },
);

/**
 * Every problem of a parsed world: its shape, an `id` that differs from the file name, entries listed
 * twice, and entries that `exists(id, version)` does not know.
 */
export function worldProblems(value: unknown, fileId: string, exists: (id: string, version: string) => boolean): SchemaProblem[] {
  const problems = shape(value);
  const world = value as { id?: unknown; objects?: unknown } | null;
  if (typeof world?.id === 'string' && world.id !== fileId) {
    problems.push({ pointer: '/id', message: `must equal the file name: expected "${fileId}", actual "${world.id}"` });
  }
  if (!Array.isArray(world?.objects)) return problems;
  const seen = new Map<string, number>();
  world.objects.forEach((entry: unknown, i: number) => {
    const ref = entry as { id?: unknown; version?: unknown } | null;
    if (typeof ref?.id !== 'string' || typeof ref.version !== 'string') return;
    const key = `${ref.id}@${ref.version}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ pointer: `/objects/${i}`, message: `lists ${key} again (already at /objects/${first})` });
      return;
    }
    seen.set(key, i);
    if (!exists(ref.id, ref.version)) {
      problems.push({ pointer: `/objects/${i}`, message: `references ${key}, which is not in the registry` });
    }
  });
  return problems;
}
