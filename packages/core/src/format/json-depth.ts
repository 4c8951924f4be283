/** How deep JSON text nests objects and arrays, found without parsing it and without recursion. Pure. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The byte offset of the first `[` or `{` of UTF-8 JSON `bytes` that opens level `max + 1` (the outermost container is
 * level 1), or null when it nests no deeper than `max`. Brackets inside strings do not count.
 */
export function jsonTooDeepAt(bytes: Uint8Array, max: number): number | null {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes (indexOf keeps long data: URIs fast).
      for (;;) {
        const end = bytes.indexOf(QUOTE, i + 1);
        if (end < 0) return null;
        let slashes = 0;
        while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return null;
}
