/** The publisher-signature rules of a version's `publication.json`: a signature verifies, and new versions may have to be signed. */
import { publicationSignatureProblem } from '@aso-registry/core/log/publication-signature';
import type { VerifierKey } from '@aso-registry/core/log/signed-note';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import type { SchemaProblem } from '@aso-registry/core/format/validate-manifest';
import { PUBLISHERS_DIR, PUBLISHER_KEY_EXT } from '@aso-registry/core/log/publication-signature';

/** What the signature check needs to know of the registry. */
export interface SignatureRules {
  /** Each publisher's registered keys (`registry/publishers/<name>.pub`). */
  publishers: ReadonlyMap<string, readonly VerifierKey[]>;
  /** True for a version that must be signed (`check --require-signatures`: the versions that are new). */
  mustSign?: (id: string, version: string) => boolean;
}

/** Every signature problem of a well-formed publication record of `id@version`. */
export async function signatureProblems(pub: PublicationRecord, id: string, version: string, rules: SignatureRules): Promise<SchemaProblem[]> {
  const key = `${id}@${version}`;
  if (pub.signature === undefined || pub.keyId === undefined) {
    if (!rules.mustSign?.(id, version)) return [];
    return [
      {
        pointer: '/signature',
        message: `is required: ${key} is not signed, and --require-signatures refuses an unsigned new version (every version is new without --base); sign it before its ledger line is appended, with ASO_PUBLISHER_KEY or ASO_PUBLISHER_KEY_FILE set: npm run log -- sign ${key}`,
      },
    ];
  }
  const keys = rules.publishers.get(pub.publisher);
  if (!keys) {
    const file = `${PUBLISHERS_DIR}/${pub.publisher}${PUBLISHER_KEY_EXT}`;
    return [{ pointer: '/publisher', message: `"${pub.publisher}" signed ${key}, but the registry has no ${file}: commit the publisher's public key there` }];
  }
  const problem = await publicationSignatureProblem({ id, version, recordHash: pub.recordHash }, { publisher: pub.publisher, keyId: pub.keyId, signature: pub.signature }, keys);
  return problem ? [{ pointer: problem.startsWith('no key') ? '/keyId' : '/signature', message: problem }] : [];
}
