/** Strict standard base64 (RFC 4648 §4, with padding), as signed notes and checkpoints need it. */
import { fromBase64, toBase64 } from '../format/sri.ts';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of `text` when it is canonical padded base64 (no spaces, no stray bits), else null. */
export function decodeBase64Exact(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const bytes = fromBase64(text);
  return toBase64(bytes) === text ? bytes : null;
}

export {  toBase64 };
