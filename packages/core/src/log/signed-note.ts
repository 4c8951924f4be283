/**
 * C2SP signed notes (https://c2sp.org/signed-note), as Go's `golang.org/x/mod/sumdb/note` reads and writes them: a
 * UTF-8 text ending in a newline, a blank line, then one line per signature, `— <key name> <base64(key ID || sig)>`.
 * Keys are Ed25519: the verifier key `<name>+<hex key ID>+<base64(0x01 || public key)>`, the signer key
 * `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>`, and the key ID is the first four bytes of
 * SHA-256(name || "\n" || 0x01 || public key). Pure: Ed25519 from @noble/ed25519, SHA-2 from @noble/hashes. Signatures
 * are checked asynchronously, with the platform's SHA-512 (WebCrypto); signing is in `note-signer.ts`.
 */
import * as ed from '@noble/ed25519';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeBase64Exact, toBase64 } from './base64.ts';
import { toHex } from '../format/sri.ts';

const ALG_ED25519 = 0x01;
const SIGNATURE_PREFIX = '— ';
/** Go refuses a note with more signatures than this. */
const MAX_SIGNATURES = 100;
const encoder = new TextEncoder();

/** A key that checks signatures: its name, ID and Ed25519 public key, and its text form. */
export interface VerifierKey {
  name: string;
  /** The key ID as 8 lowercase hex digits. */
  keyId: string;
  publicKey: Uint8Array;
  /** `<name>+<hex key ID>+<base64(0x01 || public key)>`. */
  text: string;
}

/** A key that signs: its verifier key and the 32-byte Ed25519 seed. */
export interface SignerKey extends VerifierKey {
  seed: Uint8Array;
  /** `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>`. */
  signerText: string;
}

/** One signature line of a note. */
export interface NoteSignature {
  name: string;
  /** 8 lowercase hex digits. */
  keyId: string;
  /** The 64-byte Ed25519 signature, base64. */
  signature: string;
}

/** A note taken apart: its text (ending in a newline) and its signatures, none of them checked yet. */
export interface Note {
  text: string;
  signatures: NoteSignature[];
}

/** A note whose signatures were checked against a set of known keys. */
export interface OpenedNote {
  text: string;
  /** Signatures by a known key, each verified. */
  verified: NoteSignature[];
  /** Signatures by keys not given. */
  unknown: NoteSignature[];
}

/** A key or a note that is not well formed, or a signature that does not verify. */
export class NoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoteError';
  }
}

/** True when `name` may name a key: not empty, no white space, no `+`. */
export function isKeyName(name: string): boolean {
  return name !== '' && !/[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name) && !name.includes('+') && !name.includes('\uFFFD');
}

/** The key ID of a named key: the first four bytes of SHA-256(name || "\n" || 0x01 || public key), as 8 hex digits. */
export function keyIdOf(name: string, publicKey: Uint8Array): string {
  const nameBytes = encoder.encode(`${name}\n`);
  const data = new Uint8Array(nameBytes.length + 1 + publicKey.length);
  data.set(nameBytes);
  data[nameBytes.length] = ALG_ED25519;
  data.set(publicKey, nameBytes.length + 1);
  return toHex(sha256(data).subarray(0, 4));
}

/** The verifier key text of an Ed25519 public key. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isKeyName(name)) throw new NoteError(`"${name}" cannot name a key: it must not be empty or contain spaces or "+"`);
  if (publicKey.length !== 32) throw new NoteError(`an Ed25519 public key has 32 bytes, not ${publicKey.length}`);
  return `${name}+${keyIdOf(name, publicKey)}+${toBase64(withAlg(publicKey))}`;
}

/** Parses a verifier key; throws a {@link NoteError} saying what is wrong. */
export function parseVerifierKey(text: string): VerifierKey {
  const { name, keyId, key } = splitKey(text.trim(), 'verifier key');
  const expected = keyIdOf(name, key);
  if (keyId !== expected) throw new NoteError(`verifier key ${name}: its key ID is ${keyId}, but the key's own ID is ${expected}`);
  return { name, keyId, publicKey: key, text: text.trim() };
}

/** The name, key ID and raw key of a key text `<name>+<hex key ID>+<base64(0x01 || key)>`. */
export function splitKey(text: string, what: string): { name: string; keyId: string; key: Uint8Array } {
  // The base64 key may hold "+" itself: only the first two separate the fields.
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) throw new NoteError(`a ${what} is <name>+<8 hex digits>+<base64 key>`);
  const name = text.slice(0, first);
  const keyId = text.slice(first + 1, second);
  const key64 = text.slice(second + 1);
  if (!isKeyName(name)) throw new NoteError(`a ${what} needs a name without spaces or "+"`);
  if (!/^[0-9a-f]{8}$/i.test(keyId)) throw new NoteError(`${what} ${name}: the key ID must be 8 hex digits`);
  const raw = decodeBase64Exact(key64);
  if (!raw || raw.length === 0) throw new NoteError(`${what} ${name}: the key is not base64`);
  if (raw[0] !== ALG_ED25519) throw new NoteError(`${what} ${name}: unknown key algorithm ${raw[0]} (only 1, Ed25519, is known)`);
  if (raw.length !== 33) throw new NoteError(`${what} ${name}: an Ed25519 key has 32 bytes, not ${raw.length - 1}`);
  return { name, keyId: keyId.toLowerCase(), key: raw.subarray(1) };
}

/** True when `signature` (base64 of 64 bytes) is `key`'s signature of `text`. */
export async function verifyText(text: string, signature: string, key: VerifierKey): Promise<boolean> {
  const sig = decodeBase64Exact(signature);
  if (!sig || sig.length !== 64) return false;
  try {
    return await ed.verifyAsync(sig, encoder.encode(text), key.publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The signature line `— <name> <base64(key ID || signature)>` (with its newline). */
export function signatureLine(sig: NoteSignature): string {
  const raw = decodeBase64Exact(sig.signature);
  if (!raw) throw new NoteError(`the signature by ${sig.name} is not base64`);
  const data = new Uint8Array(4 + raw.length);
  data.set(unhex(sig.keyId));
  data.set(raw, 4);
  return `${SIGNATURE_PREFIX}${sig.name} ${toBase64(data)}\n`;
}

/** Takes a signed note apart without checking any signature; throws `malformed note` when it is not one. */
export function parseNote(message: string): Note {
  const malformed = (why: string): NoteError => new NoteError(`malformed note: ${why}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f\uFFFD]/.test(message)) throw malformed('control characters or invalid UTF-8');
  const split = message.lastIndexOf('\n\n');
  if (split < 0) throw malformed('no blank line before the signatures');
  const text = message.slice(0, split + 1);
  let block = message.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw malformed('the signature block must be non-empty and end with a newline');
  const signatures: NoteSignature[] = [];
  while (block !== '') {
    const end = block.indexOf('\n');
    const line = block.slice(0, end);
    block = block.slice(end + 1);
    if (!line.startsWith(SIGNATURE_PREFIX)) throw malformed(`"${line.slice(0, 40)}" is not a signature line`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const b64 = space < 0 ? '' : rest.slice(space + 1);
    const raw = decodeBase64Exact(b64);
    if (!isKeyName(name) || !raw || raw.length < 5) throw malformed(`the signature line of "${name}" is not <name> <base64>`);
    if (signatures.length >= MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} signatures`);
    signatures.push({ name, keyId: toHex(raw.subarray(0, 4)), signature: toBase64(raw.subarray(4)) });
  }
  return { text, signatures };
}

/**
 * Checks a note's signatures against `keys`: each signature by a known key (same name and key ID) must verify, and at
 * least one must. Throws a {@link NoteError} naming the key whose signature is wrong, or saying that none is known.
 */
export async function openNote(message: string, keys: readonly VerifierKey[]): Promise<OpenedNote> {
  const { text, signatures } = parseNote(message);
  const verified: NoteSignature[] = [];
  const unknown: NoteSignature[] = [];
  const seen = new Set<string>();
  for (const sig of signatures) {
    const id = `${sig.name}+${sig.keyId}`;
    const matching = keys.filter((k) => k.name === sig.name && k.keyId === sig.keyId);
    if (matching.length === 0) {
      if (!unknown.some((u) => u.name === sig.name && u.keyId === sig.keyId && u.signature === sig.signature)) unknown.push(sig);
      continue;
    }
    if (matching.length > 1 && matching.some((k) => k.text !== matching[0]!.text)) throw new NoteError(`ambiguous key ${id}`);
    if (seen.has(id)) continue;
    seen.add(id);
    if (!(await verifyText(text, sig.signature, matching[0]!))) throw new NoteError(`invalid signature for key ${id}`);
    verified.push(sig);
  }
  if (verified.length === 0) {
    const names = unknown.map((s) => `${s.name}+${s.keyId}`).join(', ');
    throw new NoteError(`note has no verifiable signatures (signed by ${names || 'nobody'}; expected ${keys.map((k) => `${k.name}+${k.keyId}`).join(', ') || 'no key given'})`);
  }
  return { text, verified, unknown };
}

/** Throws unless `text` may be signed: ending in a newline, without control characters. */
export function checkText(text: string): void {
  // eslint-disable-next-line no-control-regex
  if (!text.endsWith('\n') || /[\u0000-\u0009\u000b-\u001f\uFFFD]/.test(text)) {
    throw new NoteError('malformed note: the text must end with a newline and hold no control character');
  }
}

/** `0x01 || key`: an Ed25519 key as key texts hold it. */
export function withAlg(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + key.length);
  out[0] = ALG_ED25519;
  out.set(key, 1);
  return out;
}

function unhex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
