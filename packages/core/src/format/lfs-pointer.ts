/**
 * Git LFS pointer files (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md): what a clone holds in place of a
 * file's content until `git lfs pull`. Their `oid` is the content's SHA-256, so a manifest can vouch for a pointer.
 */

/** A pointer is under 1024 bytes, as the specification requires. */
export const LFS_POINTER_MAX_BYTES = 1024;

const VERSION_LINE = 'version https://git-lfs.github.com/spec/v1\n';

/** What a pointer says of the content it stands for. */
export interface LfsPointer {
  /** The content's SHA-256 in lowercase hex. */
  oid: string;
  /** The content's length in bytes. */
  size: number;
}

/** Reads `bytes` as a Git LFS pointer: its oid and size, or null when the bytes are not one. */
export function parseLfsPointer(bytes: Uint8Array): LfsPointer | null {
  if (bytes.length >= LFS_POINTER_MAX_BYTES || bytes.length < VERSION_LINE.length) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (!text.startsWith(VERSION_LINE) || !text.endsWith('\n')) return null;
  let oid: string | undefined;
  let size: number | undefined;
  for (const line of text.slice(VERSION_LINE.length, -1).split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (space <= 0) return null;
    if (key === 'oid') {
      const m = /^sha256:([0-9a-f]{64})$/.exec(value);
      if (!m) return null;
      oid = m[1];
    } else if (key === 'size') {
      if (!/^(0|[1-9][0-9]{0,15})$/.test(value)) return null;
      size = Number(value);
    } else if (!/^[a-z0-9.-]+$/.test(key)) return null;
  }
  return oid !== undefined && size !== undefined && Number.isSafeInteger(size) ? { oid, size } : null;
}

/** A pointer's bytes for content of this SHA-256 (hex) and size, as `git lfs` writes them. */
export function formatLfsPointer(pointer: LfsPointer): string {
  return `${VERSION_LINE}oid sha256:${pointer.oid}\nsize ${pointer.size}\n`;
}
