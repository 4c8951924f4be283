/** Reads a JSON file of the registry (a manifest, a publication record, a world) with a size bound and the strict rule. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { formatCount } from '@aso-registry/core/documents/format-count';
import { parseStrictJson, type StrictJson } from './strict-json.ts';

/** The largest registry JSON file read: far above any real manifest, small enough that reading one costs nothing. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** The bytes read and what they hold, or why the file is refused (too large, not strict JSON). */
export type RegistryJson = ({ bytes: Uint8Array } & StrictJson) | { error: string; pointer?: string };

/** Reads `path` (at most `maxBytes`, never more into memory; synchronously, see read-small-file.ts) and parses it with `parseStrictJson`. */
export async function readRegistryJson(path: string, maxBytes = MAX_JSON_BYTES): Promise<RegistryJson> {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) return { error: `is ${formatCount(size)} bytes; a registry JSON file may hold at most ${formatCount(maxBytes)} bytes` };
    // Read one byte past the size seen, so a file that grew since is refused rather than cut.
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) return { error: 'changed while it was read; check again' };
    }
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, length);
    return { bytes, ...parseStrictJson(bytes) };
  } finally {
    closeSync(fd);
  }
}
