/**
 * A publisher's endorsement of their own new key: an Ed25519 signature, by a key the publisher already has, of the
 * text `aso/publisher-key/v1\n<new verifier key>\n`. It is written in `publishers/<name>.pub` as the comment line
 * `# endorsed by <name>+<key id> <base64 signature>` right after the new key, so that every reader of keys skips it
 * and the file still proves, line by line, that each later key was added by the holder of an earlier one. Pure.
 */
import { decodeBase64Exact } from './base64.ts';
import { isKeyName, verifyText, type SignerKey, type VerifierKey } from './signed-note.ts';
import { signText } from './note-signer.ts';

/** The first line of the endorsed text, so that the signature means nothing in any other context. */
const KEY_ENDORSEMENT_CONTEXT = 'aso/publisher-key/v1';
/** How an endorsement line starts. */
const ENDORSEMENT_PREFIX = '# endorsed by ';

/** An endorsement line taken apart: the key that signed, and its signature. */
export interface KeyEndorsement {
  name: string;
  /** 8 lowercase hex digits. */
  keyId: string;
  /** The Ed25519 signature, base64 of 64 bytes. */
  signature: string;
}

/** The exact text an endorsement signs: the new key. */
function keyEndorsementText(key: VerifierKey): string {
  return `${KEY_ENDORSEMENT_CONTEXT}\n${key.text}\n`;
}

/** The endorsement line of `key` by `by` (without its newline). */
export function endorseKey(key: VerifierKey, by: SignerKey): string {
  return `${ENDORSEMENT_PREFIX}${by.name}+${by.keyId} ${signText(keyEndorsementText(key), by)}`;
}

/**
 * The endorsement a line holds, null when the line is not an endorsement (it does not start with `# endorsed by `),
 * or a sentence saying what is wrong with one that is.
 */
export function parseEndorsement(line: string): KeyEndorsement | null | string {
  const trimmed = line.trim();
  if (!trimmed.startsWith(ENDORSEMENT_PREFIX)) return null;
  const match = /^(\S+)\+([0-9a-f]{8}) (\S+)$/.exec(trimmed.slice(ENDORSEMENT_PREFIX.length));
  const signature = match ? decodeBase64Exact(match[3]!) : null;
  if (!match || !isKeyName(match[1]!) || !signature || signature.length !== 64) {
    return `an endorsement is "${ENDORSEMENT_PREFIX}<name>+<8 hex digits> <base64 of a 64-byte signature>"`;
  }
  return { name: match[1]!, keyId: match[2]!, signature: match[3]! };
}

/** True when `endorsement` is `by`'s signature of `key`. */
export async function verifyEndorsement(key: VerifierKey, endorsement: KeyEndorsement, by: VerifierKey): Promise<boolean> {
  return endorsement.name === by.name && endorsement.keyId === by.keyId && (await verifyText(keyEndorsementText(key), endorsement.signature, by));
}
