/**
 * A content-keyed cache of file checks for the build: "the file whose content git knows as this blob (and has this
 * size) has this byte length and hash", or for a file git does not know as it is, "the file at this path, with this
 * size, mtime, ctime and inode, has ..."; and "bytes with this hash passed (or failed) gltf-validator, with this
 * inventory and these notes". Each file is hashed and validated once. The blob keys hold in any clone at any path (a
 * CI run restoring the cache of an earlier one); the stat keys only where the files were hashed. Kept in `cacheDir()`,
 * which may be deleted at any time (see docs/decisions/0001-content-keyed-caches.md).
 */
import { statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { git } from '../io/git.ts';
import * as gltfValidator from 'gltf-validator';
import type { GltfCheck } from '@aso-registry/core/format/gltf-rules';
import type { GltfFileValidator, ImageFileChecker } from './check-version.ts';
import { checkHashedImage, type ImageCheck } from './check-image.ts';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { hashSmallFileWhole, type FileHasher } from '../io/hash-file.ts';
import { validateHashedGltf } from './validate-gltf.ts';


/** The cache as the registry reader uses it. */
export interface FileCheckCache {
  /** Hashes a file, or returns its cached digest: by git blob id for a clean tracked file, else by path, size, mtime, ctime and inode. */
  hashFile: FileHasher;
  /** gltf-validator's findings for a file, cached by content hash and format. */
  validateGltf: GltfFileValidator;
  /** The image check of a file, cached by content hash and media type. */
  checkImage: ImageFileChecker;
  /** How many glTF files' findings it held when opened (those files are not validated again). */
  readonly gltfKnown: number;
  /** Writes the entries used since the cache was opened (others are dropped) and returns the counts. */
  save(): Promise<FileCheckCacheStats>;
  stats(): FileCheckCacheStats;
}

/** How often the cache answered (hits) and how often it had to read the file (misses). */
interface FileCheckCacheStats {
  hashHits: number;
  hashMisses: number;
  gltfHits: number;
  gltfMisses: number;
  imageHits: number;
  imageMisses: number;
}

interface Stored {
  format: string;
  /** Blob key (`git:<blob id>:<size>`) or stat key -> [byteLength, hash]. */
  files: Record<string, [number, string]>;
  /** `<hash> <format>` -> the validator's findings (none when the asset passed), inventory and notes. */
  gltf: Record<string, GltfCheck>;
  /** `<hash> <media type> <image rule>` -> why the file is not such an image, or its header. */
  images: Record<string, ImageCheck>;
}

/** Bumped whenever what a cached check holds changes (the glTF inventory's dimensions came with 5). */
const FORMAT = 'aso-file-checks/5';

/** The image rule an answer was given by, in its key: an answer of the rule that read only headers is not taken for one that decodes. */
const IMAGE_RULE = 'decoded';

/** The cache file in `dir`: its name carries the gltf-validator version, so a new validator starts afresh. */
export function fileCheckCachePath(dir: string): string {
  const validator = (gltfValidator as unknown as { default?: typeof gltfValidator }).default ?? gltfValidator;
  return join(dir, `file-checks-gltf-validator-${validator.version().replace(/[^\w.-]/g, '_')}.json`);
}

/**
 * What identifies a file's bytes without reading them: path, size, mtime, ctime (which no tool can set back), device
 * and inode. A synchronous stat: a promise round trip per file would cost more than the stat itself.
 */
function statKey(path: string): string {
  const s = statSync(path, { bigint: true });
  return `${resolve(path)}\u0000${s.size}\u0000${s.mtimeNs}\u0000${s.ctimeNs}\u0000${s.dev}\u0000${s.ino}`;
}

/**
 * The git blob id of every file under `dir` whose working copy is what git has in its index (clean, tracked), by
 * absolute path; empty when `dir` is not in a git repository. `git status` refreshes the index's stat data first, so a
 * fresh clone or a touched file is judged by content.
 */
async function cleanBlobIds(dir: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let top: string;
  try {
    top = (await git(['rev-parse', '--show-toplevel'], dir)).toString('utf8').trim();
  } catch {
    return ids;
  }
  const [staged, status] = await Promise.all([
    git(['ls-files', '-s', '-z', '--full-name', '--', '.'], dir),
    git(['status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames', '--', '.'], dir),
  ]);
  const changed = new Set<string>();
  for (const entry of status.toString('utf8').split('\0')) {
    // `XY path`: Y is the working copy against the index.
    if (entry.length > 3 && entry[1] !== ' ') changed.add(entry.slice(3));
  }
  for (const record of staged.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', oid = '', stage = ''] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (stage !== '0' || !/^100(644|755)$/.test(mode) || changed.has(path)) continue;
    ids.set(resolve(top, path), oid);
  }
  return ids;
}

/** Whether a cached image answer has the shape `checkImage` gives. */
function isImageCheck(value: unknown): value is ImageCheck {
  if (typeof value !== 'object' || value === null) return false;
  const { problem, header } = value as Partial<ImageCheck>;
  // A header is an object or null (`typeof null` is 'object'); a problem comes without one.
  return (typeof problem === 'string' && header === null) || (problem === null && typeof header === 'object');
}

async function readStored(file: string): Promise<Stored> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Stored>;
    if (parsed.format === FORMAT && typeof parsed.files === 'object' && typeof parsed.gltf === 'object' && parsed.files && parsed.gltf) {
      return { format: FORMAT, files: parsed.files, gltf: parsed.gltf, images: typeof parsed.images === 'object' && parsed.images ? parsed.images : {} };
    }
  } catch {
    // missing or unreadable: start empty
  }
  return { format: FORMAT, files: {}, gltf: {}, images: {} };
}

/**
 * Opens the cache kept in `dir` (created on save); files under `registryRoot` that git knows are keyed by their blob.
 * A glTF file the cache does not know is validated by `validate` (on threads, see gltf-validation-threads.ts).
 */
export async function openFileCheckCache(dir: string, registryRoot?: string, validate: GltfFileValidator = validateHashedGltf): Promise<FileCheckCache> {
  const file = fileCheckCachePath(dir);
  // Taken before git looks: a file changed after this (its ctime, which no tool sets back, is later) is not what git saw.
  const openedNs = BigInt(Date.now()) * 1_000_000n;
  const blobs = registryRoot ? await cleanBlobIds(registryRoot) : new Map<string, string>();
  const old = await readStored(file);
  const used: Stored = { format: FORMAT, files: {}, gltf: {}, images: {} };
  const counts: FileCheckCacheStats = { hashHits: 0, hashMisses: 0, gltfHits: 0, gltfMisses: 0, imageHits: 0, imageMisses: 0 };
  const validating = new Map<string, Promise<GltfCheck>>();

  /** The content key of a file git knows as it is, else its stat key. */
  const keyOf = (path: string): string => {
    const blob = blobs.get(resolve(path));
    if (!blob) return statKey(path);
    const s = statSync(path, { bigint: true });
    return s.ctimeNs < openedNs ? `git:${blob}:${s.size}` : statKey(path);
  };

  const hashFile: FileHasher = async (path) => {
    const before = keyOf(path);
    const hit = old.files[before] ?? used.files[before];
    if (hit && Number.isSafeInteger(hit[0]) && typeof hit[1] === 'string') {
      counts.hashHits++;
      used.files[before] = hit;
      return { byteLength: hit[0], hash: hit[1] };
    }
    counts.hashMisses++;
    const digest = await hashSmallFileWhole(path);
    // Only remember the digest if the file did not change while it was read.
    if (keyOf(path) === before) used.files[before] = [digest.byteLength, digest.hash];
    return digest;
  };

  const validateGltf: GltfFileValidator = (path, format, digest) => {
    const key = `${digest.hash} ${format}`;
    const hit = old.gltf[key] ?? used.gltf[key];
    if (hit && typeof hit === 'object' && Array.isArray(hit.findings)) {
      counts.gltfHits++;
      used.gltf[key] = hit;
      return Promise.resolve(hit);
    }
    let pending = validating.get(key);
    if (!pending) {
      counts.gltfMisses++;
      pending = (async () => {
        // The bytes validated must be the bytes that were hashed: those the hasher kept, else the file, which must then
        // still have that digest.
        const checked = await validate(path, format, digest);
        if (digest.bytes || (await hashFile(path)).hash === digest.hash) used.gltf[key] = checked;
        return checked;
      })();
      validating.set(key, pending);
      void pending.finally(() => validating.delete(key));
    } else counts.gltfHits++;
    return pending;
  };

  const checkImage: ImageFileChecker = async (path, mediaType, digest) => {
    const key = `${digest.hash} ${mediaType} ${IMAGE_RULE}`;
    const hit = old.images[key] ?? used.images[key];
    if (isImageCheck(hit)) {
      counts.imageHits++;
      used.images[key] = hit;
      return hit;
    }
    counts.imageMisses++;
    const checked = await checkHashedImage(path, mediaType, digest);
    // As for glTF: remember the answer only for the bytes that were hashed.
    if (digest.bytes || (await hashFile(path)).hash === digest.hash) used.images[key] = checked;
    return checked;
  };

  return {
    hashFile,
    validateGltf,
    checkImage,
    gltfKnown: Object.keys(old.gltf).length,
    stats: () => ({ ...counts }),
    save: async () => {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(file, JSON.stringify(used));
      return { ...counts };
    },
  };
}
