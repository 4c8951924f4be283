/** Subresource Integrity strings for SHA-256: `sha256-<base64 of the 32-byte digest>`. */

const SRI_PATTERN = /^sha256-([A-Za-z0-9+/]{43}=)$/;
const HEX_PATTERN = /^[0-9a-f]{64}$/;

/** Base64 of raw bytes (no line breaks). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/** Raw bytes of a base64 string. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The two lowercase hex digits of each byte value. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Lowercase hex of raw bytes, as one flat string. Appending two digits at a time made a rope of one V8 string per
 * append: a 64-digit key kept as a map key (the thumbnail index's) held about 1.7 KB instead of about 90 bytes. Made
 * that way, hex digests held 14 MB more of the build thread's heap at the end of the check of 10,000 versions, and
 * ten times that at 100,000 versions, where the build ran out of its heap during the check.
 */
export function toHex(bytes: Uint8Array): string {
  const digits = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) digits[i] = HEX_BYTES[bytes[i]!]!;
  return digits.join('');
}

/** The SRI string of a 32-byte SHA-256 digest. */
export function sriFromDigest(digest: Uint8Array): string {
  if (digest.length !== 32) throw new Error(`a SHA-256 digest has 32 bytes, not ${digest.length}`);
  return `sha256-${toBase64(digest)}`;
}

/** True when `value` is a well-formed `sha256-<base64>` string. */
export function isSri(value: string): boolean {
  return SRI_PATTERN.test(value) && fromBase64(value.slice(7)).length === 32;
}

/** The hex digest inside an SRI string. */
export function sriToHex(sri: string): string {
  const m = SRI_PATTERN.exec(sri);
  if (!m) throw new Error(`"${sri}" is not a sha256-<base64> integrity string`);
  return toHex(fromBase64(m[1]!));
}

/** The SRI string of a 64-character lowercase hex SHA-256 digest. */
export function hexToSri(hex: string): string {
  if (!HEX_PATTERN.test(hex)) throw new Error(`"${hex}" is not a 64-character lowercase hex SHA-256 digest`);
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return sriFromDigest(bytes);
}

/** SHA-256 of bytes held in memory, with WebCrypto (Node >= 20 and browsers). */
export async function sriOf(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return sriFromDigest(new Uint8Array(digest));
}
