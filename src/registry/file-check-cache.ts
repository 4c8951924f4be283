/**
 * A content-keyed cache of file checks for the build: "the file at this path, with this size, mtime, ctime and inode,
 * has this byte length and hash" and "bytes with this hash passed (or failed) gltf-validator". Each file is hashed
 * and validated once; later builds only stat it. Kept in `cacheDir()`, which may be deleted at any time.
 */
import { statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as gltfValidator from 'gltf-validator';
import type { GltfFinding } from '../core/gltf-rules.ts';
import type { GltfFileValidator } from './check-version.ts';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { sha256File, type FileHasher } from '../io/hash-file.ts';
import { validateGltfFile } from './validate-gltf.ts';


/** The cache as the registry reader uses it. */
export interface FileCheckCache {
  /** Hashes a file, or returns its cached digest when its path, size, mtime, ctime and inode are unchanged. */
  hashFile: FileHasher;
  /** gltf-validator's findings for a file, cached by content hash and format. */
  validateGltf: GltfFileValidator;
  /** Writes the entries used since the cache was opened (others are dropped) and returns the counts. */
  save(): Promise<FileCheckCacheStats>;
  stats(): FileCheckCacheStats;
}

/** How often the cache answered (hits) and how often it had to read the file (misses). */
export interface FileCheckCacheStats {
  hashHits: number;
  hashMisses: number;
  gltfHits: number;
  gltfMisses: number;
}

interface Stored {
  format: string;
  /** Stat key -> [byteLength, hash]. */
  files: Record<string, [number, string]>;
  /** `<hash> <format>` -> findings (empty when the asset passed). */
  gltf: Record<string, GltfFinding[]>;
}

const FORMAT = 'aso-file-checks/1';

/** The cache file in `dir`: its name carries the gltf-validator version, so a new validator starts afresh. */
export function fileCheckCachePath(dir: string): string {
  const validator = (gltfValidator as unknown as { default?: typeof gltfValidator }).default ?? gltfValidator;
  return join(dir, `file-checks-gltf-validator-${validator.version().replace(/[^\w.-]/g, '_')}.json`);
}

/**
 * What identifies a file's bytes without reading them: path, size, mtime, ctime (which no tool can set back), device
 * and inode. A synchronous stat: for tens of thousands of small files it costs a fraction of a promise round trip.
 */
function statKey(path: string): string {
  const s = statSync(path, { bigint: true });
  return `${resolve(path)}\u0000${s.size}\u0000${s.mtimeNs}\u0000${s.ctimeNs}\u0000${s.dev}\u0000${s.ino}`;
}

async function readStored(file: string): Promise<Stored> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Stored>;
    if (parsed.format === FORMAT && typeof parsed.files === 'object' && typeof parsed.gltf === 'object' && parsed.files && parsed.gltf) {
      return { format: FORMAT, files: parsed.files, gltf: parsed.gltf };
    }
  } catch {
    // missing or unreadable: start empty
  }
  return { format: FORMAT, files: {}, gltf: {} };
}

/** Opens the cache kept in `dir` (created on save). */
export async function openFileCheckCache(dir: string): Promise<FileCheckCache> {
  const file = fileCheckCachePath(dir);
  const old = await readStored(file);
  const used: Stored = { format: FORMAT, files: {}, gltf: {} };
  const counts: FileCheckCacheStats = { hashHits: 0, hashMisses: 0, gltfHits: 0, gltfMisses: 0 };
  const validating = new Map<string, Promise<GltfFinding[]>>();

  const hashFile: FileHasher = async (path) => {
    const before = statKey(path);
    const hit = old.files[before] ?? used.files[before];
    if (hit && Number.isSafeInteger(hit[0]) && typeof hit[1] === 'string') {
      counts.hashHits++;
      used.files[before] = hit;
      return { byteLength: hit[0], hash: hit[1] };
    }
    counts.hashMisses++;
    const digest = await sha256File(path);
    // Only remember the digest if the file did not change while it was read.
    if (statKey(path) === before) used.files[before] = [digest.byteLength, digest.hash];
    return digest;
  };

  const validateGltf: GltfFileValidator = (path, format, digest) => {
    const key = `${digest.hash} ${format}`;
    const hit = old.gltf[key] ?? used.gltf[key];
    if (hit && Array.isArray(hit)) {
      counts.gltfHits++;
      used.gltf[key] = hit;
      return Promise.resolve(hit);
    }
    let pending = validating.get(key);
    if (!pending) {
      counts.gltfMisses++;
      pending = (async () => {
        // The bytes read here must be the bytes that were hashed: validate, then make sure the file still has that digest.
        const findings = await validateGltfFile(path, { format });
        const now = await hashFile(path);
        if (now.hash === digest.hash) used.gltf[key] = findings;
        return findings;
      })();
      validating.set(key, pending);
      void pending.finally(() => validating.delete(key));
    } else counts.gltfHits++;
    return pending;
  };

  return {
    hashFile,
    validateGltf,
    stats: () => ({ ...counts }),
    save: async () => {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(file, JSON.stringify(used));
      return { ...counts };
    },
  };
}
