/**
 * Signing C2SP signed notes with Ed25519 keys (see `signed-note.ts`): new keys, signer key texts, signatures. Used where
 * a registry is built or published, never by a reader, so readers need no synchronous SHA-512.
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { toBase64 } from './base64.ts';
import { checkText, isKeyName, keyIdOf, NoteError, signatureLine, splitKey, withAlg, type NoteSignature, type SignerKey } from './signed-note.ts';

// Signing here is synchronous, so Ed25519 needs a synchronous SHA-512.
ed.hashes.sha512 = sha512;
const encoder = new TextEncoder();

/** A new key pair named `name`; `seed` (32 bytes) makes it reproducible, else it is random. */
export function generateKey(name: string, seed?: Uint8Array): SignerKey {
  if (!isKeyName(name)) throw new NoteError(`"${name}" cannot name a key: it must not be empty or contain spaces or "+"`);
  const secret = seed ?? ed.utils.randomSecretKey();
  if (secret.length !== 32) throw new NoteError(`an Ed25519 seed has 32 bytes, not ${secret.length}`);
  const publicKey = ed.getPublicKey(secret);
  const keyId = keyIdOf(name, publicKey);
  return {
    name,
    keyId,
    publicKey,
    text: `${name}+${keyId}+${toBase64(withAlg(publicKey))}`,
    seed: secret.slice(),
    signerText: `PRIVATE+KEY+${name}+${keyId}+${toBase64(withAlg(secret))}`,
  };
}

/** Parses a signer key (`PRIVATE+KEY+...`); throws a {@link NoteError} saying what is wrong (never quoting the key). */
export function parseSignerKey(text: string): SignerKey {
  const trimmed = text.trim();
  if (!trimmed.startsWith('PRIVATE+KEY+')) throw new NoteError('a signer key starts with PRIVATE+KEY+');
  const { name, keyId, key } = splitKey(trimmed.slice('PRIVATE+KEY+'.length), 'signer key');
  const signer = generateKey(name, key);
  if (signer.keyId !== keyId) throw new NoteError(`signer key ${name}: its key ID is ${keyId}, but the key's own ID is ${signer.keyId}`);
  return signer;
}

/** The Ed25519 signature of a note's text by `key`, base64. */
export function signText(text: string, key: SignerKey): string {
  return toBase64(ed.sign(encoder.encode(text), key.seed));
}

/** Signs `text` with each key, after the signatures given (a signature by the same key is replaced). */
export function signNote(text: string, keys: readonly SignerKey[], earlier: readonly NoteSignature[] = []): string {
  checkText(text);
  const mine = new Set(keys.map((k) => `${k.name}+${k.keyId}`));
  const kept = earlier.filter((s) => !mine.has(`${s.name}+${s.keyId}`));
  const added = keys.map((k) => ({ name: k.name, keyId: k.keyId, signature: signText(text, k) }));
  return `${text}\n${[...kept, ...added].map(signatureLine).join('')}`;
}
