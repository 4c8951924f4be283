/** Which version a publish creates, and the metadata it carries over from the object's latest version. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { latestVersion } from '@aso-registry/core/format/latest';
import { objectIdProblem } from '@aso-registry/core/format/object-id';
import { bumpVersion, isExactVersion, versionProblem } from '@aso-registry/core/format/version';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { readLedgerCheckpoint } from '../registry/ledger-file.ts';
import { PublishError, usageError } from './publish-error.ts';
import type { Bump } from './submit-options.ts';
import { targetDir } from './write-version.ts';
import { MANIFEST_FILE, PUBLICATION_FILE } from '../registry/registry-files.ts';

/** The new version of an object and what is known of the object so far. */
export interface VersionPlan {
  id: string;
  version: string;
  /** The versions published already. */
  existing: string[];
  /** The latest published version's manifest, when the object exists. */
  latest?: Manifest;
}

/** The versions of `id` in the registry (folder names that are exact versions). */
export async function publishedVersions(registryRoot: string, id: string): Promise<string[]> {
  const entries = await readdir(join(registryRoot, 'objects', id, 'versions'), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && isExactVersion(e.name)).map((e) => e.name);
}

/**
 * The version to publish (after checking that the registry's ledger can take one more line): `version` when given (it must not exist), else `1.0.0` for a new object,
 * else the latest version bumped by `bump` (patch unless told).
 */
export async function planVersion(registryRoot: string, id: string, wanted: { version?: string; bump?: Bump }): Promise<VersionPlan> {
  const idProblem = objectIdProblem(id);
  if (idProblem) throw usageError(`--object "${id}" ${idProblem}`);
  if (wanted.version !== undefined && wanted.bump !== undefined) throw usageError('give either --version or --bump, not both');
  try {
    await readLedgerCheckpoint(registryRoot);
  } catch (error) {
    throw new PublishError(`${(error as Error).message}; the ledger must be valid before a version is added to it (see npm run check)`);
  }
  const existing = await publishedVersions(registryRoot, id);
  const newest = latestVersion(existing);
  const latest = newest === undefined ? undefined : (await readVersion(registryRoot, id, newest)).manifest;
  let version: string;
  if (wanted.version !== undefined) {
    const problem = versionProblem(wanted.version);
    if (problem) throw usageError(`--version ${problem}`);
    version = wanted.version;
  } else {
    version = newest === undefined ? '1.0.0' : bumpVersion(newest, wanted.bump ?? 'patch');
  }
  if (existing.includes(version)) {
    throw new PublishError(
      `${id}@${version} exists already (${targetDir(registryRoot, id, version)}); published versions are never changed: ` +
        `choose another --version${newest ? ` (the latest is ${newest})` : ''}`,
    );
  }
  return { id, version, existing, ...(latest ? { latest } : {}) };
}

/** The manifest and publication record of a published version, read without checking its files. */
export async function readVersion(registryRoot: string, id: string, version: string): Promise<{ manifest: Manifest; publication: PublicationRecord; dir: string }> {
  const dir = targetDir(registryRoot, id, version);
  const read = async <T>(name: string): Promise<T> => {
    const path = join(dir, name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new PublishError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new PublishError(`${path}: is not valid JSON (${(error as Error).message})`);
    }
  };
  return { manifest: await read<Manifest>(MANIFEST_FILE), publication: await read<PublicationRecord>(PUBLICATION_FILE), dir };
}
