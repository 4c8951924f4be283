/**
 * A publisher's signature of a new version: an Ed25519 signed-note signature, by the publisher's own key, of the text
 * `aso/publication/v1\n<id>@<version>\n<record hash>\n`. `publication.json` and the version's ledger line carry the
 * publisher (the key's name), the key ID and the signature; `registry/publishers/<name>.pub` holds the public keys.
 * Pure.
 */
import { NoteError, parseVerifierKey, signatureLine, verifyText, type SignerKey, type VerifierKey } from './signed-note.ts';
import { signText } from './note-signer.ts';

/** The folder of publishers' public keys, in the registry and at the root of the site. */
export const PUBLISHERS_DIR = 'publishers';
/** What a publisher's key file ends with: `publishers/<name>.pub`. */
export const PUBLISHER_KEY_EXT = '.pub';

/** The site path of a publisher's key file. */
export function publisherKeysPath(name: string): string {
  return `${PUBLISHERS_DIR}/${name}${PUBLISHER_KEY_EXT}`;
}

/** The first line of the signed text, so that the signature means nothing in any other context. */
const PUBLICATION_SIGNATURE_CONTEXT = 'aso/publication/v1';

/** What a signed publication carries beside its record. */
export interface PublicationSignature {
  /** The name of the key, equal to the record's `publisher`. */
  publisher: string;
  /** The key ID, 8 lowercase hex digits. */
  keyId: string;
  /** The Ed25519 signature, base64 of 64 bytes. */
  signature: string;
}

/** What is signed: the version and its record hash. */
export interface SignedVersion {
  id: string;
  version: string;
  recordHash: string;
}

/** The exact text a publisher signs for a version. */
export function publicationText(v: SignedVersion): string {
  return `${PUBLICATION_SIGNATURE_CONTEXT}\n${v.id}@${v.version}\n${v.recordHash}\n`;
}

/** Signs a version with a publisher's key. */
export function signPublication(v: SignedVersion, key: SignerKey): PublicationSignature {
  return { publisher: key.name, keyId: key.keyId, signature: signText(publicationText(v), key) };
}

/** The signature as a whole signed note (the text, a blank line, the signature line), for tools that read notes. */
export function publicationNote(v: SignedVersion, sig: PublicationSignature): string {
  return `${publicationText(v)}\n${signatureLine({ name: sig.publisher, keyId: sig.keyId, signature: sig.signature })}`;
}

/**
 * Null when `sig` is a signature of `v` by one of `keys` (the publisher's registered keys), else a sentence saying
 * what is wrong: no key of that ID, a key of another name, or a signature that does not verify.
 */
export async function publicationSignatureProblem(v: SignedVersion, sig: PublicationSignature, keys: readonly VerifierKey[]): Promise<string | null> {
  const key = keys.find((k) => k.keyId === sig.keyId);
  if (!key) {
    const known = keys.map((k) => k.keyId).join(', ');
    return `no key ${sig.publisher}+${sig.keyId} is registered for publisher "${sig.publisher}"${known ? ` (registered: ${known})` : ''}`;
  }
  if (key.name !== sig.publisher) return `key ${key.keyId} belongs to "${key.name}", not to publisher "${sig.publisher}"`;
  return (await verifyText(publicationText(v), sig.signature, key)) ? null : `the signature of ${v.id}@${v.version} does not verify with key ${key.name}+${key.keyId}`;
}

/**
 * The keys of a publisher's `.pub` file: one verifier key per line (blank lines and `#` comments allowed), each named
 * `name`. Throws a {@link NoteError} naming the line that is wrong.
 */
export function parsePublisherKeys(text: string, name: string): VerifierKey[] {
  const keys: VerifierKey[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    let key: VerifierKey;
    try {
      key = parseVerifierKey(line);
    } catch (error) {
      throw new NoteError(`line ${i + 1}: ${(error as Error).message}`);
    }
    if (key.name !== name) throw new NoteError(`line ${i + 1}: the key is named "${key.name}", but the file is the publisher "${name}"'s`);
    if (keys.some((k) => k.keyId === key.keyId)) throw new NoteError(`line ${i + 1}: key ${key.keyId} is listed twice`);
    keys.push(key);
  });
  if (keys.length === 0) throw new NoteError('holds no key (one verifier key per line)');
  return keys;
}
