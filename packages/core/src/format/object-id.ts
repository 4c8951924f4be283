/** Object ids and `<id>@<version>` references: the one rule, taken from the aso/object/v0.1 schema. Pure. */
import schema from './schema/aso-object-v0.1.schema.json' with { type: 'json' };
import { isExactVersion } from './version.ts';

const idRule = schema.properties.id;

/** The pattern of an object id (also used for world ids), as the schema writes it. */
export const OBJECT_ID_PATTERN: string = idRule.pattern;

const ID = new RegExp(OBJECT_ID_PATTERN);

/** Why `id` cannot be an object id, or null. */
export function objectIdProblem(id: string): string | null {
  if (id.length < idRule.minLength || id.length > idRule.maxLength) {
    return `must have ${idRule.minLength} to ${idRule.maxLength} characters, not ${id.length}`;
  }
  if (!ID.test(id)) return 'must be lowercase letters, digits, ".", "_" or "-", starting and ending with a letter or digit';
  return null;
}

/** `<id>@<version>` split and checked, or a message saying what is wrong. */
export function parseVersionRef(ref: string): { id: string; version: string } | string {
  const at = ref.lastIndexOf('@');
  const id = at > 0 ? ref.slice(0, at) : ref;
  const version = at > 0 ? ref.slice(at + 1) : '';
  if (at <= 0 || objectIdProblem(id) !== null) return `"${ref}" is not <id>@<version> (an id like oak-chair, e.g. oak-chair@1.0.0)`;
  if (!isExactVersion(version)) return `"${ref}": "${version}" is not an exact semantic version`;
  return { id, version };
}
