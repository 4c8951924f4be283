/**
 * `npm run new-version`: a version by hand from files on disk. The manifest's byte lengths, hashes, formats, media
 * types and URLs come from the files; then the publication record and the ledger line, all checked with the rules of
 * `npm run check` before anything is written, and the whole registry checked again afterwards.
 */
import { lstat, readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { REPRESENTATION_KINDS, representationKind } from '@aso-registry/core/format/representation-kinds';
import { objectIdProblem } from '@aso-registry/core/format/object-id';
import { isExactVersion } from '@aso-registry/core/format/version';
import { checkRegistry, type CheckResult } from '../registry/load-registry.ts';
import { PublishError, usageError } from './publish-error.ts';
import { publishVersion } from './publish-version.ts';
import type { Reporter } from './reporter.ts';
import { rfc3339, type VersionFile } from './version-draft.ts';
import { exists, targetDir } from './write-version.ts';
import type { RegistryBlobs } from '../registry/registry-blobs.ts';

/** What the command is asked to publish. */
export interface NewVersionRequest {
  /** The representation files: `<representation id>.<format>`, e.g. `mesh.glb`, `reference.jpg`. */
  files: string[];
  /** An image shown as the version's preview (also `<id>.<format>`). */
  preview?: string;
  id: string;
  version: string;
  name?: string;
  description?: string;
  tags?: string[];
  license?: string;
  generator?: string;
  /** RFC 3339; now when absent. */
  createdAt?: string;
  /** `provenance.source`: where the files come from. */
  source?: string;
  publisher: string;
}

/** Where the version goes. */
export interface NewVersionTarget {
  registryRoot: string;
  registryUrl: string;
  /** What problem paths are relative to. */
  repoRoot: string;
  /** The blob store of `ASO_BLOB_STORE`, where the files go instead of `registry/`. */
  blobs?: RegistryBlobs;
}

/** What was written, and the check of the whole registry afterwards. */
export interface NewVersionResult {
  id: string;
  version: string;
  dir: string;
  publicationId: string;
  recordHash: string;
  representations: Array<{ id: string; type: string; format: string; mediaType: string; byteLength: number; hash: string }>;
  check: CheckResult;
}


/** The representation a file becomes: id and format from its name, type and media type from its extension. */
async function readRepresentation(path: string, role: string): Promise<VersionFile> {
  const name = basename(path);
  const kind = representationKind(name);
  if (!kind) {
    throw usageError(`${path}: unknown file type; the registry takes ${REPRESENTATION_KINDS.map((k) => `.${k.format}`).join(', ')}`);
  }
  const id = name.slice(0, name.lastIndexOf('.'));
  const info = await lstat(path).catch(() => null);
  if (!info) throw usageError(`${path}: no such file`);
  if (!info.isFile()) throw usageError(`${path}: not a plain file`);
  const bytes = new Uint8Array(await readFile(path));
  let width: number | null = null;
  let height: number | null = null;
  if (kind.type === 'image') {
    const { default: sharp } = await import('sharp');
    const meta = await sharp(bytes)
      .metadata()
      .catch((error: Error) => Promise.reject(new PublishError(`${path}: is not a readable ${kind.format} image (${error.message})`)));
    width = meta.autoOrient?.width ?? meta.width ?? null;
    height = meta.autoOrient?.height ?? meta.height ?? null;
  }
  return { rep: { id, type: kind.type, format: kind.format, mediaType: kind.mediaType }, role, bytes, width, height };
}

/** Refuses what the registry check would refuse about the request itself, naming the flag or file. */
function checkRequest(req: NewVersionRequest): void {
  const problem = objectIdProblem(req.id);
  if (problem) throw usageError(`--id "${req.id}" is not an object id: it ${problem}`);
  if (!isExactVersion(req.version)) throw usageError(`--version "${req.version}" is not an exact semantic version such as 1.0.0`);
  if (req.files.length === 0) throw usageError('name at least one representation file, e.g. mesh.glb');
  if (req.name !== undefined && req.name.trim() === '') throw usageError('--name must not be empty');
  if (req.license !== undefined && req.license.trim() === '') throw usageError('--license must not be empty (leave it out to declare none)');
  if (req.createdAt !== undefined && Number.isNaN(Date.parse(req.createdAt))) throw usageError(`--created-at "${req.createdAt}" is not an RFC 3339 date-time`);
  const names = [...req.files, ...(req.preview ? [req.preview] : [])].map((f) => basename(f));
  const ids = names.map((n) => n.slice(0, n.lastIndexOf('.')));
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw usageError(`two files are named "${twice}.*"; each representation needs its own id (the file name before the extension)`);
}

/** Writes a new version from files; refuses (writing nothing) what `npm run check` would refuse. */
export async function newVersion(req: NewVersionRequest, target: NewVersionTarget, report: Reporter): Promise<NewVersionResult> {
  checkRequest(req);
  const dir = targetDir(target.registryRoot, req.id, req.version);
  if (await exists(dir)) throw new PublishError(`${req.id}@${req.version} exists already (${dir}); published versions never change: choose another --version`);

  report.step('check the registry as it is');
  const store = target.blobs ? { blobs: target.blobs } : {};
  const before = await checkRegistry(target.registryRoot, { registryUrl: target.registryUrl, repoRoot: target.repoRoot, ...store });
  if (!before.ok) {
    throw new PublishError(`the registry does not pass npm run check now; fix it before adding a version:\n${before.problems.map((p) => `  ${p}`).join('\n')}`);
  }

  report.step(`read ${req.files.length + (req.preview ? 1 : 0)} files`);
  const representations = await Promise.all(req.files.map((f) => readRepresentation(resolve(f), 'representation')));
  const preview = req.preview ? await readRepresentation(resolve(req.preview), 'preview') : undefined;
  if (preview && preview.rep.type !== 'image') throw usageError(`--preview ${req.preview}: the preview must be an image`);

  const published = await publishVersion(
    {
      id: req.id,
      version: req.version,
      name: req.name?.trim() ?? req.id,
      description: req.description ?? '',
      tags: [...new Set(req.tags ?? [])],
      ...(req.license !== undefined ? { license: req.license.trim() } : {}),
      ...(req.generator !== undefined ? { generator: req.generator } : {}),
      createdAt: req.createdAt ?? rfc3339(new Date()),
      provenance: { source: req.source ?? 'added by hand with npm run new-version' },
      representations,
      ...(preview ? { preview } : {}),
    },
    { ...target, publisher: req.publisher, message: () => '' },
    report,
  );

  report.step('check the registry with the new version');
  const check = await checkRegistry(target.registryRoot, { registryUrl: target.registryUrl, repoRoot: target.repoRoot, ...store });
  return {
    id: req.id,
    version: req.version,
    dir: published.dir,
    publicationId: published.publication.publicationId,
    recordHash: published.publication.recordHash,
    representations: [...published.manifest.representations, ...(published.manifest.preview ? [published.manifest.preview] : [])].map(
      ({ id, type, format, mediaType, byteLength, hash }) => ({ id, type, format, mediaType, byteLength, hash }),
    ),
    check,
  };
}
