/**
 * Writing a new version into `registry/`: staged in a temporary folder beside the registry, checked with the
 * rules of `npm run check`, moved into place with one rename, then recorded in the ledger. Nothing existing is touched.
 */
import { randomUUID } from 'node:crypto';
import { lstat, mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { LEDGER_FILE, signedFields } from '@aso-registry/core/log/ledger';
import { versionDir } from '@aso-registry/core/format/paths';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { checkVersion } from '../registry/check-version.ts';
import { sha256File } from '../io/hash-file.ts';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { appendLedgerEntry } from './append-ledger.ts';
import { formatProblem } from '../registry/registry-model.ts';
import { loadRegistryKeys } from '../registry/registry-keys.ts';
import { PublishError } from './publish-error.ts';
import type { VersionDraft } from './version-draft.ts';
import { MANIFEST_FILE, PUBLICATION_FILE, REPRESENTATIONS_DIR } from '../registry/registry-files.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

/** A version written to a staging folder, not yet in the registry. */
export interface StagedVersion {
  id: string;
  version: string;
  /** The staging folder (it becomes the version folder). */
  dir: string;
  manifest: Manifest;
  manifestBytes: Uint8Array;
  publication: PublicationRecord;
  /** Removes the staging folder (a no-op once it has been moved into the registry). */
  discard(): Promise<void>;
}

/** A version moved into the registry, with the way to take it out again while it is not committed. */
export interface WrittenVersion {
  /** The version folder. */
  dir: string;
  /** The absolute paths to commit: the version folder, and the ledger when a line was appended. */
  paths: string[];
  /** Whether a ledger line was appended. */
  ledger: boolean;
  /** Removes the version folder and restores the ledger as it was. */
  undo(): Promise<void>;
}

/** The folder of `id@version` in the registry at `registryRoot`. */
export function targetDir(registryRoot: string, id: string, version: string): string {
  return join(registryRoot, ...versionDir(id, version).split('/'));
}

/** True when something (a folder, a file, a link) exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Writes the draft's files, manifest and publication record to a fresh staging folder next to the registry folder. */
export async function stageVersion(
  registryRoot: string,
  draft: VersionDraft,
  manifest: Manifest,
  manifestBytes: Uint8Array,
  publication: PublicationRecord,
): Promise<StagedVersion> {
  const staging = join(dirname(registryRoot), `.aso-staging-${randomUUID()}`);
  const dir = join(staging, draft.version);
  const discard = async (): Promise<void> => {
    await rm(staging, { recursive: true, force: true });
  };
  try {
    await mkdir(join(dir, REPRESENTATIONS_DIR), { recursive: true });
    for (const f of [...draft.representations, ...(draft.preview ? [draft.preview] : [])]) {
      await writeFile(join(dir, REPRESENTATIONS_DIR, `${f.rep.id}.${f.rep.format}`), f.bytes);
    }
    await writeFile(join(dir, MANIFEST_FILE), manifestBytes);
    await writeFile(join(dir, PUBLICATION_FILE), `${JSON.stringify(publication, null, 2)}\n`);
  } catch (error) {
    await discard();
    throw new PublishError(`cannot write the new version to ${staging}: ${(error as Error).message}`);
  }
  return { id: draft.id, version: draft.version, dir, manifest, manifestBytes, publication, discard };
}

/** Checks the staged folder with the code of `npm run check`; problems name the files as they will be in the registry. */
export async function checkStaged(staged: StagedVersion, registryRoot: string, registryUrl: string, repoRoot: string): Promise<string[]> {
  return checkVersionFolder(registryRoot, staged.dir, targetDir(registryRoot, staged.id, staged.version), staged, registryUrl, repoRoot);
}

/**
 * Checks one version folder with the code of `npm run check` (manifest, publication record, every file's length, hash
 * and glTF validity, signatures against the publisher keys of `registryRoot`); problems name the files as they are, or
 * will be, at `final`.
 */
export async function checkVersionFolder(
  registryRoot: string,
  dir: string,
  final: string,
  v: { id: string; version: string },
  registryUrl: string,
  repoRoot: string,
): Promise<string[]> {
  const rel = (path: string): string => {
    const moved = path.startsWith(dir) ? final + path.slice(dir.length) : path;
    return relative(repoRoot, moved).split(sep).join('/');
  };
  // A signature is checked against the publishers' keys the registry commits, as `npm run check` will.
  const { publishers } = await loadRegistryKeys(registryRoot);
  const result = await checkVersion(dir, { id: v.id, version: v.version }, {
    registryUrl,
    rel,
    files: pLimit(availableParallelism()),
    hashFile: sha256File,
    validateGltf: true,
    signatures: { publishers },
  });
  return result.problems.map(formatProblem);
}

/**
 * Moves the staged folder into the registry with one rename and appends the publication to
 * `registry/ledger.jsonl` (kept when the file exists, started when the registry has no other version).
 * Refuses when the version exists already; undoes the rename when the ledger cannot be written.
 */
export async function writeVersion(registryRoot: string, staged: StagedVersion): Promise<WrittenVersion> {
  const { id, version } = staged;
  const target = targetDir(registryRoot, id, version);
  if (await exists(target)) throw new PublishError(`${id}@${version} exists already (${target}); published versions are never overwritten; choose another --version`);
  const hasOthers = await registryHasVersions(registryRoot);
  const made = await makeParents(dirname(target));
  const ledgerFile = join(registryRoot, LEDGER_FILE);
  const ledgerBefore = await readOptionalText(ledgerFile);
  const keepsLedger = ledgerBefore !== null || !hasOthers;
  const undoDirs = async (): Promise<void> => {
    await rm(target, { recursive: true, force: true });
    for (const d of made.reverse()) await rmdir(d).catch(() => {});
  };
  try {
    await rename(staged.dir, target);
  } catch (error) {
    await undoDirs();
    throw new PublishError(`cannot move the new version into ${target}: ${(error as Error).message}`);
  }
  await staged.discard();
  const undoLedger = async (): Promise<void> => {
    if (!keepsLedger) return;
    if (ledgerBefore === null) await rm(ledgerFile, { force: true });
    else await writeFileAtomic(ledgerFile, ledgerBefore);
  };
  if (keepsLedger) {
    try {
      const { publicationId, publishedAt, recordHash } = staged.publication;
      await appendLedgerEntry(registryRoot, { publicationId, id, version, recordHash, publishedAt, ...signedFields(staged.publication) });
    } catch (error) {
      await undoLedger();
      await undoDirs();
      throw new PublishError(`cannot record ${id}@${version} in the ledger: ${(error as Error).message}`);
    }
  }
  return {
    dir: target,
    paths: [target, ...(keepsLedger ? [ledgerFile] : [])],
    ledger: keepsLedger,
    undo: async () => {
      await undoLedger();
      await undoDirs();
    },
  };
}

/** Creates `dir` and its missing parents; returns the folders it made, outermost first. */
async function makeParents(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; !(await exists(d)); d = dirname(d)) missing.unshift(d);
  await mkdir(dir, { recursive: true });
  return missing;
}

/** True when `registry/objects/` holds any object folder. */
async function registryHasVersions(registryRoot: string): Promise<boolean> {
  const entries = await readdir(join(registryRoot, 'objects')).catch(() => [] as string[]);
  return entries.some((e) => !e.startsWith('.'));
}
