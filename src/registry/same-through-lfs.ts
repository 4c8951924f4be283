/**
 * Whether a file and the blob git keeps for it at a base commit hold the same content when one of them is a Git LFS
 * pointer: git keeps the pointer and a checkout holds the content, or a clone without the content holds the pointer.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { LFS_POINTER_MAX_BYTES, parseLfsPointer, type LfsPointer } from '@aso-registry/core/format/lfs-pointer';
import { readBlob, type TreeEntry } from '../io/git.ts';
import { sha256File } from '../io/hash-file.ts';
import { sriToHex } from '@aso-registry/core/format/sri';

const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** True when `path` now and `entry` at the base are the same content, one of them through its Git LFS pointer. */
export async function sameThroughLfs(top: string, entry: TreeEntry, path: string): Promise<boolean> {
  const size = (await lstat(path)).size;
  let base: LfsPointer | null = null;
  if (entry.size >= 0 && entry.size < LFS_POINTER_MAX_BYTES) base = parseLfsPointer(await readBlob(top, entry.oid));
  if (base) {
    if (size < LFS_POINTER_MAX_BYTES) {
      const now = parseLfsPointer(await readFile(path));
      if (now) return now.oid === base.oid && now.size === base.size;
    }
    if (size !== base.size) return false;
    return sriToHex((await sha256File(path)).hash) === base.oid;
  }
  if (size >= LFS_POINTER_MAX_BYTES) return false;
  const now = parseLfsPointer(await readFile(path));
  return now !== null && now.size === entry.size && sha256Hex(await readBlob(top, entry.oid)) === now.oid;
}
