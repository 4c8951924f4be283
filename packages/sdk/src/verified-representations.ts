/**
 * A version's files as its verified manifest declares them: a document (the API document, agent.json) that lists
 * other files, or describes one otherwise, is refused, so that nothing a mirror changed outside the manifest's bytes
 * (whose hash the log vouches for) is ever returned or checked against.
 */
import { apiRepresentations } from '@aso-registry/core/documents/api-documents';
import type { ApiRepresentation } from '@aso-registry/core/documents/api-types';
import type { Manifest } from '@aso-registry/core/format/types';
import { IntegrityError, type IntegrityFacts } from './errors.ts';

/** What a listed representation says that the manifest decides (`role` and `sha256` follow from it). */
const DECLARED = ['id', 'role', 'type', 'format', 'mediaType', 'url', 'byteLength', 'hash', 'sha256'] as const;

/** The facts of an entry that one side lacks. */
const NONE: IntegrityFacts = { hash: 'none' };

const facts = (rep: ApiRepresentation | undefined): IntegrityFacts => (rep ? { hash: rep.hash, byteLength: rep.byteLength } : NONE);
const names = (reps: readonly ApiRepresentation[]): string => reps.map((r) => (r.role === 'preview' ? `${r.id} (preview)` : r.id)).join(', ') || 'nothing';

/**
 * The representations of `manifest` (then its preview), as the site builds them, with the glTF inventories `listed`
 * reports (read from the files by the registry; `checkIntegrity` proves the files themselves). Throws an
 * {@link IntegrityError} naming `url` and the first representation that `listed` (read from `url`) declares otherwise.
 */
export function verifiedRepresentations(listed: readonly ApiRepresentation[], manifest: Manifest, url: string): ApiRepresentation[] {
  const inventories = Object.fromEntries(listed.flatMap((r) => (r.gltf ? [[r.id, r.gltf] as const] : [])));
  const expected = apiRepresentations(manifest, inventories);
  for (let i = 0; i < Math.max(listed.length, expected.length); i++) {
    const want = expected[i];
    const got = listed[i];
    const field = DECLARED.find((key) => want?.[key] !== got?.[key]);
    if (field === undefined) continue;
    if (!want || !got || field === 'id' || field === 'role') {
      throw new IntegrityError(url, 'the representations listed in', facts(want), facts(got), `it lists ${names(listed)}, but the verified manifest declares ${names(expected)}`);
    }
    const what = `representation "${want.id}" in`;
    if (field === 'hash' || field === 'byteLength' || field === 'sha256') {
      const reason = `it declares ${got.byteLength} bytes ${got.hash}${field === 'sha256' ? ` (sha256 ${got.sha256})` : ''}, but the verified manifest says ${want.byteLength} bytes ${want.hash}`;
      throw new IntegrityError(url, what, facts(want), facts(got), reason);
    }
    throw new IntegrityError(url, what, facts(want), facts(got), `its ${field} is ${JSON.stringify(got[field])}, but the verified manifest says ${JSON.stringify(want[field])}`);
  }
  return expected;
}
