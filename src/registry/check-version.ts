/** Reads and checks one version folder, `objects/<id>/versions/<version>/` (DESIGN §4, §10). */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { GltfCheck } from '@aso-registry/core/format/gltf-rules';
import { representationUrl } from '@aso-registry/core/format/paths';
import type { Manifest, PublicationRecord, Representation } from '@aso-registry/core/format/types';
import { manifestProblems } from '@aso-registry/core/format/validate-manifest';
import { activeContentProblems } from '@aso-registry/core/format/active-content';
import { foldedName } from '@aso-registry/core/format/folded-name';
import { LFS_POINTER_MAX_BYTES, parseLfsPointer, type LfsPointer } from '@aso-registry/core/format/lfs-pointer';
import { isSri, sriToHex } from '@aso-registry/core/format/sri';
import type { BlobRef, RegistryBlobs } from './registry-blobs.ts';
import { publicationProblems } from './check-publication.ts';
import { readRegistryJson } from './read-registry-json.ts';
import { signatureProblems, type SignatureRules } from './check-signature.ts';
import { sriOfBytes, type FileDigest, type FileHasher } from '../io/hash-file.ts';
import type { LimitFunction } from 'p-limit';
import { entryKindProblem, listDir } from '../io/list-dir.ts';
import type { Problem, RegistryFile, RegistryVersion } from './registry-model.ts';
import { isGltf, validateHashedGltf } from './validate-gltf.ts';
import { checkHashedImage, isImage, type ImageCheck } from './check-image.ts';
import { MANIFEST_FILE, PUBLICATION_FILE, REPRESENTATIONS_DIR } from './registry-files.ts';


const VERSION_ENTRIES: Record<string, 'file' | 'dir'> = {
  [MANIFEST_FILE]: 'file',
  [PUBLICATION_FILE]: 'file',
  [REPRESENTATIONS_DIR]: 'dir',
};

/** What checking a version needs from the registry around it. */
export interface VersionCheckContext {
  registryUrl: string;
  /** A path as problems name it (relative to the repository). */
  rel: (path: string) => string;
  /** The limit on files hashed at once, a large file's checks included (they read it whole again). */
  files: LimitFunction;
  hashFile: FileHasher;
  validateGltf: boolean;
  /** How a glTF file whose digest was just verified is validated; default `validateHashedGltf` (a cache can key it by the digest). */
  validateGltfFile?: GltfFileValidator;
  /** How an image file whose digest was just verified is checked; default `checkHashedImage` (a cache can key it by the digest). */
  checkImageFile?: ImageFileChecker;
  /** The publishers' keys that a signed publication record is checked against; without them signatures are not checked. */
  signatures?: SignatureRules;
  /** Where a representation missing from `representations/` is looked for (`ASO_BLOB_STORE`); without it, it is missing. */
  blobs?: RegistryBlobs;
  /**
   * True when every file's content must be read (the build publishes it): a Git LFS pointer is then a problem and a
   * stored blob is downloaded. Otherwise a pointer is checked against the manifest and a stored blob's size is asked.
   */
  needContent?: boolean;
  /** Download and hash stored blobs even when the content is not needed (`check --deep`). */
  deep?: boolean;
}

/** Validates a glTF file given its format and verified digest. */
export type GltfFileValidator = (path: string, format: string, digest: FileDigest) => Promise<GltfCheck>;

/** The image rule's answer for an image file with this verified digest: why it is not an image of `mediaType`, or its header. */
export type ImageFileChecker = (path: string, mediaType: string, digest: FileDigest) => Promise<ImageCheck>;

/** The result of checking one version folder. */
export interface VersionCheck {
  /** Present when the manifest and publication.json are well-formed (even if files are wrong). */
  version?: RegistryVersion;
  problems: Problem[];
  /** Files whose byte length and hash matched, and their bytes. */
  verified: Verified;
}

/** What the check vouches for: files read and hashed, and files checked without their content. */
export interface Verified {
  files: number;
  bytes: number;
  /** Git LFS pointers whose oid and size are the manifest's hash and byte length. */
  byPointer: number;
  /** Blobs in the store whose size is the manifest's byte length (their bytes not read). */
  bySize: number;
}

/** Nothing verified yet. */
export function noneVerified(): Verified {
  return { files: 0, bytes: 0, byPointer: 0, bySize: 0 };
}

/** The manifest's hash and byte length of a representation, when both are well-formed. */
function blobRef(rep: Declared['rep']): BlobRef | undefined {
  return typeof rep.hash === 'string' && isSri(rep.hash) && typeof rep.byteLength === 'number' ? { hash: rep.hash, byteLength: rep.byteLength } : undefined;
}

/** The Git LFS pointer a file holds in place of the content the manifest declares, or null. */
async function lfsPointerOf(rep: Declared['rep'], path: string, digest: FileDigest): Promise<LfsPointer | null> {
  if (digest.byteLength >= LFS_POINTER_MAX_BYTES || (digest.hash === rep.hash && digest.byteLength === rep.byteLength)) return null;
  return parseLfsPointer(digest.bytes ?? (await readFile(path)));
}

/** A representation (or the preview) as declared, whatever its other fields hold. */
interface Declared {
  rep: Partial<Representation> & { id: string; format: string };
  role: RegistryFile['role'];
  pointer: string;
  /** `<id>.<format>`, or null when that is not a single file name. */
  name: string | null;
}

/** The problem of a Git LFS pointer where the content is needed. */
export const LFS_PULL = 'is a Git LFS pointer, not the file\'s content: run `git lfs pull` to fetch the content, then build again';

/** A problem message for a file that could not be read. */
export function readError(error: unknown): string {
  return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `<id>.<format>` when it is one plain file name inside `dir`, else null. */
function fileName(dir: string, id: string, format: string): string | null {
  const name = `${id}.${format}`;
  if (/[/\\\0]/.test(name)) return null;
  const path = resolve(dir, name);
  return dirname(path) === resolve(dir) && basename(path) === name ? name : null;
}

function declaredFiles(manifest: Record<string, unknown>, repsDir: string): Declared[] {
  const out: Declared[] = [];
  const add = (value: unknown, role: Declared['role'], pointer: string): void => {
    if (!isObject(value) || typeof value.id !== 'string' || typeof value.format !== 'string') return;
    const rep = value as Declared['rep'];
    out.push({ rep, role, pointer, name: fileName(repsDir, rep.id, rep.format) });
  };
  if (Array.isArray(manifest.representations)) {
    manifest.representations.forEach((r, i) => add(r, 'representation', `/representations/${i}`));
  }
  add(manifest.preview, 'preview', '/preview');
  return out;
}

/** Checks one version folder: its entries, manifest, representation files and publication record. */
export async function checkVersion(
  dir: string,
  folder: { id: string; version: string },
  ctx: VersionCheckContext,
): Promise<VersionCheck> {
  const problems: Problem[] = [];
  const verified = noneVerified();
  const manifestFile = join(dir, MANIFEST_FILE);
  const publicationFile = join(dir, PUBLICATION_FILE);
  const repsDir = join(dir, REPRESENTATIONS_DIR);
  const at = (path: string, message: string, pointer?: string): void => {
    problems.push({ file: ctx.rel(path), ...(pointer ? { pointer } : {}), message });
  };

  const present = new Set<string>();
  for (const entry of (await listDir(dir)) ?? []) {
    const refused = entryKindProblem(entry);
    const expected = VERSION_ENTRIES[entry.name];
    if (refused) at(entry.path, refused);
    else if (!expected) {
      at(entry.path, `unknown ${entry.kind === 'dir' ? 'folder' : 'file'} in a version folder; expected only ${MANIFEST_FILE}, ${PUBLICATION_FILE} and ${REPRESENTATIONS_DIR}/`);
    } else if (expected !== entry.kind) at(entry.path, expected === 'dir' ? 'must be a folder' : 'must be a file');
    else present.add(entry.name);
  }

  if (!present.has(MANIFEST_FILE)) {
    at(manifestFile, 'is missing');
    if (!present.has(PUBLICATION_FILE)) at(publicationFile, 'is missing');
    return { problems, verified };
  }
  const read = await readRegistryJson(manifestFile);
  const manifestHash = 'bytes' in read ? sriOfBytes(read.bytes) : null;
  let manifest: Record<string, unknown> | undefined;
  let manifestOk = false;
  if ('error' in read) at(manifestFile, read.error, read.pointer);
  else {
    const schema = manifestProblems(read.value);
    for (const p of schema) at(manifestFile, p.message, p.pointer);
    manifestOk = schema.length === 0;
    if (isObject(read.value)) manifest = read.value;
  }

  const files: RegistryFile[] = [];
  if (manifest) {
    const m = manifest;
    if (typeof m.id === 'string' && m.id !== folder.id) {
      at(manifestFile, `must equal the object folder name: expected "${folder.id}", actual "${m.id}"`, '/id');
    }
    if (typeof m.version === 'string' && m.version !== folder.version) {
      at(manifestFile, `must equal the version folder name: expected "${folder.version}", actual "${m.version}"`, '/version');
    }
    const declared = declaredFiles(m, repsDir);
    const ids = new Map<string, string>();
    const names = new Map<string, string>();
    const folded = new Map<string, { name: string; pointer: string }>();
    const wanted = new Map<string, Declared>();
    for (const d of declared) {
      const firstId = ids.get(d.rep.id);
      if (firstId !== undefined) {
        at(manifestFile, `repeats the representation id "${d.rep.id}" of ${firstId}/id; ids must be unique, the preview's included`, `${d.pointer}/id`);
        continue;
      }
      ids.set(d.rep.id, d.pointer);
      if (d.name === null) {
        at(manifestFile, `makes the file name "${d.rep.id}.${d.rep.format}", which is not a single file inside ${REPRESENTATIONS_DIR}/`, d.pointer);
        continue;
      }
      const firstName = names.get(d.name);
      if (firstName !== undefined) {
        at(manifestFile, `names the same file ${REPRESENTATIONS_DIR}/${d.name} as ${firstName}`, d.pointer);
        continue;
      }
      names.set(d.name, d.pointer);
      const same = folded.get(foldedName(d.name));
      if (same) {
        at(manifestFile, `names the file ${REPRESENTATIONS_DIR}/${d.name}, which differs from ${REPRESENTATIONS_DIR}/${same.name} of ${same.pointer} only by case or Unicode form; a case-insensitive file system or host holds them as one file`, d.pointer);
      } else folded.set(foldedName(d.name), { name: d.name, pointer: d.pointer });
      for (const p of activeContentProblems({ fileName: d.name, mediaType: typeof d.rep.mediaType === 'string' ? d.rep.mediaType : '' })) {
        at(manifestFile, p.message, `${d.pointer}/${p.field}`);
      }
      wanted.set(d.name, d);
      if (typeof d.rep.url === 'string' && typeof m.id === 'string' && typeof m.version === 'string') {
        const url = representationUrl(ctx.registryUrl, m.id, m.version, d.rep.id, d.rep.format);
        if (d.rep.url !== url) at(manifestFile, `is not the URL of the file: expected ${url}, actual ${d.rep.url}`, `${d.pointer}/url`);
      }
    }

    const found = new Set<string>();
    const listing = present.has(REPRESENTATIONS_DIR) ? ((await listDir(repsDir)) ?? []) : [];
    const expectedNames = [...wanted.keys()].join(', ') || 'no files';
    const refusedNames = new Set<string>();
    for (const entry of listing) {
      const refused = entryKindProblem(entry);
      if (refused) {
        at(entry.path, refused);
        refusedNames.add(entry.name);
      }
      else if (entry.kind === 'dir') at(entry.path, `unknown folder in ${REPRESENTATIONS_DIR}/; expected only ${expectedNames}`);
      else if (!wanted.has(entry.name)) {
        at(entry.path, `unknown file in ${REPRESENTATIONS_DIR}/: not <representation id>.<format> of any representation in ${MANIFEST_FILE}; expected only ${expectedNames}`);
      } else found.add(entry.name);
    }

    /** What the checks after the hash find in a file: gltf-validator's findings, the image header. */
    const content = async (d: Declared, path: string, digest: FileDigest) => {
      const gltf =
        ctx.validateGltf && typeof d.rep.mediaType === 'string' && isGltf({ format: d.rep.format, mediaType: d.rep.mediaType })
          ? await (ctx.validateGltfFile ?? validateHashedGltf)(path, d.rep.format, digest)
          : undefined;
      const image =
        typeof d.rep.mediaType === 'string' && isImage({ mediaType: d.rep.mediaType })
          ? await (ctx.checkImageFile ?? checkHashedImage)(path, d.rep.mediaType, digest)
          : undefined;
      return { gltf, image };
    };
    const checks = [...wanted.values()].map(async (d) => {
      // Problems name a stored file as the registry path it stands for.
      const shown = join(repsDir, d.name!);
      let path = shown;
      let stored = false;
      if (!found.has(d.name!)) {
        const ref = blobRef(d.rep);
        if (!ctx.blobs || !ref || refusedNames.has(d.name!)) return { status: 'missing' as const, d, path, refused: refusedNames.has(d.name!) };
        const blobs = ctx.blobs;
        if (!ctx.needContent && !ctx.deep) {
          try {
            return { status: 'sized' as const, d, path, url: blobs.url(ref), size: await ctx.files(() => blobs.size(ref)) };
          } catch (error) {
            return { status: 'store' as const, d, path, why: (error as Error).message };
          }
        }
        try {
          path = await ctx.files(() => blobs.local(ref));
          stored = true;
        } catch (error) {
          return { status: 'store' as const, d, path, why: (error as Error).message };
        }
      }
      try {
        // A file whose bytes the hash kept (a small one) is checked outside the limit: its bytes are in memory already,
        // and gltf-validator may be working on another thread meanwhile. A large one is read again by its checks, within it.
        const read = await ctx.files(async () => {
          const digest = await ctx.hashFile(path);
          const pointer = stored ? null : await lfsPointerOf(d.rep, path, digest);
          return { digest, pointer, found: digest.bytes || pointer ? undefined : await content(d, path, digest) };
        });
        if (read.pointer) return { status: 'pointer' as const, d, path, pointer: read.pointer };
        const { gltf, image } = read.found ?? (await content(d, path, read.digest));
        return { status: 'read' as const, d, path, shown, digest: read.digest, gltf, image };
      } catch (error) {
        return { status: 'unreadable' as const, d, path: shown, why: readError(error) };
      }
    });
    for (const r of await Promise.all(checks)) {
      const file = `${REPRESENTATIONS_DIR}/${r.d.name}`;
      if (r.status === 'missing') {
        if (!r.refused) at(manifestFile, `declares ${file}, which is missing`, r.d.pointer);
        continue;
      }
      if (r.status === 'unreadable') {
        at(r.path, r.why);
        continue;
      }
      if (r.status === 'store') {
        at(manifestFile, `the blob of ${file}: ${r.why}`, r.d.pointer);
        continue;
      }
      if (r.status === 'sized') {
        if (r.size === undefined) at(manifestFile, `declares ${file}, which is neither in ${REPRESENTATIONS_DIR}/ nor in the blob store: ${r.url} is missing`, r.d.pointer);
        else if (r.size !== r.d.rep.byteLength) at(manifestFile, `byte length mismatch for ${file} in the blob store (${r.url}): expected ${r.d.rep.byteLength}, actual ${r.size}`, `${r.d.pointer}/byteLength`);
        else verified.bySize++;
        continue;
      }
      if (r.status === 'pointer') {
        const { oid, size } = r.pointer;
        const hex = typeof r.d.rep.hash === 'string' && isSri(r.d.rep.hash) ? sriToHex(r.d.rep.hash) : undefined;
        if (ctx.needContent) at(r.path, LFS_PULL);
        else if (oid !== hex || size !== r.d.rep.byteLength) {
          at(r.path, `is a Git LFS pointer to other content than ${MANIFEST_FILE} declares: the pointer says sha256:${oid}, ${size} bytes; the manifest says sha256:${hex ?? '?'}, ${String(r.d.rep.byteLength)} bytes`);
        } else verified.byPointer++;
        continue;
      }
      let ok = true;
      if (typeof r.d.rep.byteLength === 'number' && r.d.rep.byteLength !== r.digest.byteLength) {
        ok = false;
        at(manifestFile, `byte length mismatch for ${file}: expected ${r.d.rep.byteLength}, actual ${r.digest.byteLength}`, `${r.d.pointer}/byteLength`);
      }
      if (typeof r.d.rep.hash === 'string' && r.d.rep.hash !== r.digest.hash) {
        ok = false;
        at(manifestFile, `hash mismatch for ${file}: expected ${r.d.rep.hash}, actual ${r.digest.hash}`, `${r.d.pointer}/hash`);
      }
      const findings = r.gltf?.findings ?? [];
      for (const f of findings) at(r.shown, f.message, f.pointer);
      const imageProblem = r.image?.problem;
      if (imageProblem) at(r.shown, imageProblem);
      if (ok && findings.length === 0 && !imageProblem) {
        verified.files++;
        verified.bytes += r.digest.byteLength;
      }
      const gltf = r.gltf?.inventory && r.gltf.notes ? { inventory: r.gltf.inventory, notes: r.gltf.notes } : undefined;
      const image = r.image?.header;
      files.push({ rep: r.d.rep as Representation, role: r.d.role, path: r.path, ...(gltf ? { gltf } : {}), ...(image ? { image } : {}) });
    }
  }

  let publication: PublicationRecord | undefined;
  if (!present.has(PUBLICATION_FILE)) at(publicationFile, 'is missing');
  else {
    const pub = await readRegistryJson(publicationFile);
    if ('error' in pub) at(publicationFile, pub.error, pub.pointer);
    else if (manifestHash !== null) {
      const found = publicationProblems(pub.value, manifestHash);
      if (found.length === 0 && ctx.signatures) found.push(...(await signatureProblems(pub.value as PublicationRecord, folder.id, folder.version, ctx.signatures)));
      for (const p of found) at(publicationFile, p.message, p.pointer);
      if (found.length === 0) publication = pub.value as PublicationRecord;
    }
  }

  if (!manifestOk || !manifest || !publication) return { problems, verified };
  const m = manifest as unknown as Manifest;
  return {
    version: { id: m.id, version: m.version, dir, manifestFile, manifest: m, publication, files },
    problems,
    verified,
  };
}
