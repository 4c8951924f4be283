/**
 * The JSON Schemas (draft 2020-12) the registry checks documents against: the manifest, `publication.json` and world
 * files, each read by `schemaValidator`.
 */
import manifestSchema from './schema/aso-object-v0.1.schema.json' with { type: 'json' };
import { OBJECT_ID_PATTERN } from './object-id.ts';

const SRI = '^sha256-[A-Za-z0-9+/]{43}=$';
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The JSON Schema of `publication.json` (DESIGN §4). */
export const PUBLICATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['publicationId', 'publishedAt', 'publisher', 'recordHash'],
  properties: {
    publicationId: { type: 'string', pattern: UUID },
    publishedAt: { type: 'string', format: 'date-time' },
    publisher: { type: 'string', pattern: '\\S' },
    recordHash: { type: 'string', pattern: SRI },
    keyId: { type: 'string', pattern: '^[0-9a-f]{8}$' },
    signature: { type: 'string', pattern: '^[A-Za-z0-9+/]{86}==$' },
  },
  dependentRequired: { keyId: ['signature'], signature: ['keyId'] },
};

/** The JSON Schema of a world file, `registry/worlds/<world-id>.json`. */
export const WORLD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'objects'],
  properties: {
    id: { type: 'string', minLength: 3, maxLength: 80, pattern: OBJECT_ID_PATTERN },
    name: { type: 'string', minLength: 1 },
    objects: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'version'],
        properties: { id: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
      },
    },
  },
};

/** Every schema, by name. */
export const SHAPE_SCHEMAS: Readonly<Record<string, object>> = {
  manifest: manifestSchema,
  publication: PUBLICATION_SCHEMA,
  world: WORLD_SCHEMA,
};
