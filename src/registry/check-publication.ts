/** The rules of `publication.json` (DESIGN §4). */
import type { SchemaProblem } from '@aso-registry/core/format/json-shape';
import { shapeCheck } from '@aso-registry/core/format/json-shape';
import { schemaValidator } from '@aso-registry/core/format/schema-validator';
import { PUBLICATION_SCHEMA } from '@aso-registry/core/format/shape-schemas';

const shape = shapeCheck(
  schemaValidator(PUBLICATION_SCHEMA),
  {
    ' type': 'must be a JSON object',
    '/publicationId pattern': 'must be a UUID (8-4-4-4-12 hexadecimal digits)',
    '/publisher pattern': 'must not be empty',
    '/recordHash pattern': 'must be sha256-<base64 of the 32-byte digest> (43 base64 characters and "=")',
    '/keyId pattern': 'must be the 8 lowercase hex digits of the key ID of the publisher\'s key',
    '/signature pattern': 'must be the base64 of a 64-byte Ed25519 signature',
    ' dependentRequired': 'keyId and signature come together: a signed publication has both',
  },
);

/**
 * Every problem of a parsed `publication.json`, given the SRI hash of the exact bytes of the
 * `aso.object.json` beside it.
 */
export function publicationProblems(value: unknown, manifestHash: string): SchemaProblem[] {
  const problems = shape(value);
  const recordHash = (value as { recordHash?: unknown } | null)?.recordHash;
  if (typeof recordHash === 'string' && !problems.some((p) => p.pointer === '/recordHash') && recordHash !== manifestHash) {
    problems.push({
      pointer: '/recordHash',
      message: `is not the hash of the exact bytes of aso.object.json: expected ${manifestHash}, actual ${recordHash}`,
    });
  }
  return problems;
}
