/** `--correct <id>@<version> --reason <text>`: a new version with fixed metadata, the same bytes, and `provenance.correction`. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseVersionRef } from '@aso-registry/core/format/object-id';
import { sriOf } from '@aso-registry/core/format/sri';
import type { Representation } from '@aso-registry/core/format/types';
import { prepareCommit, publishBranch } from './git-publish.ts';
import { planVersion, publishedVersions, readVersion } from './plan-version.ts';
import { PublishError, usageError } from './publish-error.ts';
import { publishVersion } from './publish-version.ts';
import { createReporter, type SubmitIo } from './reporter.ts';
import { checkMetadataFlags, contextBlobs, publisherOf, publisherSigner, type Context, type SubmitResult } from './publish-context.ts';
import { rfc3339, type VersionFile } from './version-draft.ts';
import { REPRESENTATIONS_DIR } from '../registry/registry-files.ts';
import { exists } from './write-version.ts';

/** One entry of a source manifest's `provenance.outputs`, as far as a correction reads it. */
interface Output {
  url?: unknown;
  role?: unknown;
  width?: unknown;
  height?: unknown;
  sha256?: unknown;
  assetId?: unknown;
}

/** Publishes the correction of `ctx.options.correct`. */
export async function correct(ctx: Context, io: SubmitIo): Promise<SubmitResult> {
  const { options } = ctx;
  const source = parseVersionRef(options.correct!);
  if (typeof source === 'string') throw usageError(`--correct ${source}`);
  const reason = options.reason?.trim();
  if (!reason) throw usageError('--correct needs --reason "<what was wrong>"');
  const extra = (['image', 'model', 'object', 'resume', 'api'] as const).filter((k) => options[k] !== undefined);
  if (extra.length) throw usageError(`--correct reuses the bytes of ${options.correct}; leave out ${extra.map((k) => `--${k}`).join(', ')}`);
  checkMetadataFlags(options);
  if ([options.name, options.description, options.tags, options.license].every((v) => v === undefined)) {
    throw usageError('--correct needs the fixed metadata: at least one of --name, --description, --tags, --license');
  }
  if (!(await publishedVersions(ctx.registryRoot, source.id)).includes(source.version)) {
    throw new PublishError(`--correct ${options.correct}: no such published version in ${ctx.registryRoot}`);
  }
  const plan = await planVersion(ctx.registryRoot, source.id, { version: options.version, bump: options.bump });
  const commit = options.commit ?? true;
  const git = commit ? await prepareCommit(options.cwd, ctx.registryRoot, publishBranch(plan.id, plan.version)) : undefined;
  const signer = await publisherSigner(ctx.env, options.cwd);
  const publisher = await publisherOf(options, signer);

  const report = await createReporter(io, commit ? 5 : 4);
  try {
    report.step(`read ${source.id}@${source.version} and verify its files`);
    const { manifest: old, publication: oldPublication, dir } = await readVersion(ctx.registryRoot, source.id, source.version);
    const outputs = Array.isArray(old.provenance?.outputs) ? (old.provenance.outputs as Output[]) : [];
    const blobs = contextBlobs(ctx);
    const file = async (rep: Representation): Promise<VersionFile> => {
      let path = join(dir, REPRESENTATIONS_DIR, `${rep.id}.${rep.format}`);
      // A stored version keeps no files in the registry: its bytes come, verified, from the blob store.
      if (blobs && !(await exists(path))) path = await blobs.local(rep).catch((e: Error) => Promise.reject(new PublishError(`${path}: ${e.message}`)));
      const bytes = new Uint8Array(await readFile(path).catch((e: Error) => Promise.reject(new PublishError(`${path}: cannot be read (${e.message})`))));
      const hash = await sriOf(bytes);
      if (hash !== rep.hash || bytes.length !== rep.byteLength) {
        throw new PublishError(`${path}: does not match its manifest (expected ${rep.byteLength} bytes ${rep.hash}, actual ${bytes.length} bytes ${hash}); run npm run check`);
      }
      const out = outputs.find((o) => o.url === rep.url);
      return {
        rep: { id: rep.id, type: rep.type, format: rep.format, mediaType: rep.mediaType },
        role: typeof out?.role === 'string' ? out.role : rep.id,
        bytes,
        width: typeof out?.width === 'number' ? out.width : null,
        height: typeof out?.height === 'number' ? out.height : null,
        ...(typeof out?.assetId === 'string' ? { assetId: out.assetId } : {}),
      };
    };
    const representations = await Promise.all(old.representations.map(file));
    const preview = old.preview ? await file(old.preview) : undefined;
    report.info(`${representations.length + (preview ? 1 : 0)} files verified; publication ${oldPublication.publicationId}`);

    report.step(`build ${plan.id}@${plan.version}, correcting ${source.id}@${source.version}`);
    const { outputs: _outputs, storage: _storage, correction: _correction, ...provenance } = old.provenance;
    const license = options.license ?? old.license;
    const published = await publishVersion(
      {
        id: plan.id,
        version: plan.version,
        name: options.name ?? old.name,
        description: options.description ?? old.description,
        tags: options.tags ?? old.tags,
        ...(license !== undefined ? { license } : {}),
        ...(old.generator !== undefined ? { generator: old.generator } : {}),
        createdAt: rfc3339(new Date()),
        provenance: {
          ...provenance,
          correction: { reason, sourceObject: { id: source.id, version: source.version }, sourcePublicationId: oldPublication.publicationId },
        },
        representations,
        ...(preview ? { preview } : {}),
      },
      {
        ...(blobs ? { blobs } : {}),
        registryRoot: ctx.registryRoot,
        registryUrl: ctx.registryUrl,
        repoRoot: git?.top ?? options.cwd,
        publisher,
        signer,
        git,
        signal: options.signal,
        message: (m, p) =>
          [
            `Correct ${source.id}@${source.version} as ${m.id}@${m.version}`,
            '',
            `Reason: ${reason}`,
            `The same bytes as ${source.id}@${source.version} (publication ${oldPublication.publicationId}), with fixed metadata.`,
            '',
            `Publication: ${p.publicationId}`,
            `Record hash: ${p.recordHash}`,
            `Publisher: ${p.publisher}`,
          ].join('\n'),
      },
      report,
    );
    return {
      id: plan.id,
      version: plan.version,
      dir: published.dir,
      publicationId: published.publication.publicationId,
      recordHash: published.publication.recordHash,
      ...(git && published.commit ? { branch: git.branch, commit: published.commit } : {}),
    };
  } finally {
    report.close();
  }
}
