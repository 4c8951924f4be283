/** The last steps every publish shares: manifest and publication record, the registry check, the atomic write and the commit. */
import { relative, sep } from 'node:path';
import { signPublication } from '@aso-registry/core/log/publication-signature';
import type { SignerKey } from '@aso-registry/core/log/signed-note';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { commitOnBranch, type GitTarget } from './git-publish.ts';
import { AssetRejected, PublishError } from './publish-error.ts';
import type { Reporter } from './reporter.ts';
import { buildManifest, buildPublication, manifestBytes, type VersionDraft } from './version-draft.ts';
import { checkStaged, stageVersion, writeVersion } from './write-version.ts';
import { storeBlobs } from './store-blobs.ts';
import type { RegistryBlobs } from '../registry/registry-blobs.ts';

/** Where and how a version is published. */
export interface PublishTarget {
  registryRoot: string;
  registryUrl: string;
  /** What problem paths are relative to. */
  repoRoot: string;
  publisher: string;
  /** The publisher's key: the new version's record hash is signed with it (its name must be `publisher`). */
  signer?: SignerKey | null;
  /** The commit to make, or undefined for `--no-commit`. */
  git?: GitTarget;
  /** The commit message (subject, blank line, body). */
  message: (manifest: Manifest, publication: PublicationRecord) => string;
  /** Checked before anything is written: an aborted publish writes nothing. */
  signal?: AbortSignal;
  /** The blob store of `ASO_BLOB_STORE`: the files go there, and the version folder keeps the manifest and record. */
  blobs?: RegistryBlobs;
}

/** A published version. */
export interface Published {
  manifest: Manifest;
  publication: PublicationRecord;
  /** The version folder. */
  dir: string;
  /** The commit, unless `--no-commit`. */
  commit?: string;
}

/** Checks the draft as `npm run check` would, writes it into the registry with its ledger line, and commits it. */
export async function publishVersion(draft: VersionDraft, target: PublishTarget, report: Reporter): Promise<Published> {
  const manifest = buildManifest(draft, target.registryUrl);
  const bytes = manifestBytes(manifest);
  const publication = await buildPublication(bytes, target.publisher);
  if (target.signer) {
    if (target.signer.name !== target.publisher) throw new PublishError(`the signing key is ${target.signer.name}'s, but the publisher is ${target.publisher}`);
    const { keyId, signature } = signPublication({ id: draft.id, version: draft.version, recordHash: publication.recordHash }, target.signer);
    Object.assign(publication, { keyId, signature });
    report.info(`signed by ${target.signer.name}+${keyId}`);
  }

  report.step(`check ${draft.id}@${draft.version} with the registry rules`);
  const staged = await stageVersion(target.registryRoot, draft, manifest, bytes, publication);
  try {
    const problems = await checkStaged(staged, target.registryRoot, target.registryUrl, target.repoRoot);
    if (problems.length) throw new AssetRejected(`the new version does not pass the registry check:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    if (target.signal?.aborted) throw new PublishError('interrupted before the new version was written', undefined, 130);
    if (target.blobs) {
      const stored = await storeBlobs(staged.dir, manifest, target.blobs);
      report.info(`${stored.uploaded} file${stored.uploaded === 1 ? '' : 's'} uploaded to ${target.blobs.label}${stored.present ? `, ${stored.present} there already` : ''}`);
    }

    report.step(`write ${staged.id}@${staged.version} into the registry`);
    const written = await writeVersion(target.registryRoot, staged);
    report.info(written.paths.map((p) => relative(target.repoRoot, p).split(sep).join('/')).join(', '));
    if (!target.git) return { manifest, publication, dir: written.dir };

    report.step(`commit on branch ${target.git.branch}`);
    try {
      const commit = await commitOnBranch(target.git, written.paths, target.message(manifest, publication));
      return { manifest, publication, dir: written.dir, commit };
    } catch (error) {
      await written.undo();
      throw error;
    }
  } finally {
    await staged.discard();
  }
}
