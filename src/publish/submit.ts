/**
 * `submit(options, io)`: image -> job -> verified asset -> new immutable version -> one commit on `publish/<id>/<version>`.
 * Every failure is one PublishError, and `registry/` is left exactly as it was.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { cacheDir, registryDir } from '../registry/registry-dir.ts';
import { registryUrl as readRegistryUrl } from '../registry/registry-url.ts';
import { POLL_BACKOFF, RETRY_BACKOFF } from '../jobs/client/backoff.ts';
import { JobApiError } from '../jobs/client/job-api-error.ts';
import type { ApiJob, ApiModel } from '../jobs/client/parse-job.ts';
import { waitForJob } from '../jobs/client/wait-for-job.ts';
import { connectApi, type ApiConnection } from './connect-api.ts';
import { correct } from './correct.ts';
import { prepareCommit, publishBranch, type GitTarget } from './git-publish.ts';
import { describe, readInputImage, type InputImage } from './input-image.ts';
import { planVersion } from './plan-version.ts';
import { AssetRejected, PublishError, usageError } from './publish-error.ts';
import { publishVersion, type PublishTarget } from './publish-version.ts';
import { previewImage, referenceImage } from './reference-images.ts';
import { createReporter, type Reporter, type SubmitIo } from './reporter.ts';
import { loadState, removeState, saveState, type PublishState } from './state-file.ts';
import { checkMetadataFlags, publisherOf, publisherSigner, type Context, type SubmitResult } from './publish-context.ts';
import type { SubmitOptions } from './submit-options.ts';
import { rfc3339, sha256Hex, type VersionDraft } from './version-draft.ts';
import { verifyAsset } from './verify-asset.ts';

export type { SubmitIo } from './reporter.ts';
export type { SubmitOptions } from './submit-options.ts';
export type { SubmitResult } from './publish-context.ts';

/** Runs one publish: a new job, a resumed job (`resume`) or a correction (`correct`). */
export async function submit(options: SubmitOptions, io: SubmitIo): Promise<SubmitResult> {
  const env = options.env ?? process.env;
  let url: string;
  try {
    url = readRegistryUrl(env);
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const ctx: Context = {
    options,
    env,
    registryRoot: registryDir(env, options.cwd),
    registryUrl: url,
    stateDir: options.stateDir ?? join(cacheDir(env, options.cwd), 'submit'),
  };
  if (options.correct !== undefined) return correct(ctx, io);
  if (options.resume !== undefined) return resumeJob(ctx, io);
  return newJob(ctx, io);
}

async function newJob(ctx: Context, io: SubmitIo): Promise<SubmitResult> {
  const { options } = ctx;
  for (const [flag, value] of [['--image', options.image], ['--model', options.model], ['--object', options.object]] as const) {
    if (value === undefined || value.trim() === '') throw usageError(`${flag} is required`);
  }
  if (options.reason !== undefined) throw usageError('--reason goes with --correct <id>@<version>');
  checkMetadataFlags(options);
  const plan = await planVersion(ctx.registryRoot, options.object!, { version: options.version, bump: options.bump });
  const commit = options.commit ?? true;
  const git = commit ? await prepareCommit(options.cwd, ctx.registryRoot, publishBranch(plan.id, plan.version)) : undefined;
  const signer = await publisherSigner(ctx.env, options.cwd);
  const publisher = await publisherOf(options, signer);
  const report = await createReporter(io, commit ? 8 : 7);
  try {
    report.step(`read the image ${options.image}`);
    const image = await readInputImage(options.image!, options.cwd, options.signal);
    report.info(`${image.format}, ${image.width} x ${image.height}, ${image.bytes.length} bytes`);

    const api = await connect(ctx, undefined);
    try {
      report.step(`submit a "${options.model}" job to ${api.label}`);
      const model = await findApiModel(api, options.model!);
      const latest = plan.latest;
      const state: PublishState = {
        kind: 'aso-submit-state',
        jobId: '',
        api: api.state,
        model: model.id,
        object: plan.id,
        version: plan.version,
        name: options.name ?? latest?.name ?? plan.id,
        description: options.description ?? latest?.description ?? `Made from ${image.filename} by the ${model.name} image-to-3D model.`,
        tags: options.tags ?? latest?.tags ?? [],
        ...((options.license ?? latest?.license) !== undefined ? { license: options.license ?? latest!.license } : {}),
        publisher,
        commit,
        image: { filename: image.filename, label: image.label, ...(image.url ? { url: image.url } : {}) },
        submittedAt: new Date().toISOString(),
      };
      const job = await apiCall(() =>
        api.client.createJob(
          image.url
            ? { model: model.id, imageUrl: image.url, idempotencyKey: randomUUID() }
            : { model: model.id, image: { bytes: image.bytes, filename: image.filename }, idempotencyKey: randomUUID() },
        ),
      );
      state.jobId = job.id;
      await saveState(ctx.stateDir, state, image.bytes);
      report.info(`job ${job.id} ${job.status}; if this stops, continue with: npm run submit -- --resume ${job.id}`);
      return await finishJob(ctx, state, image, async () => job, model, api, git, report);
    } finally {
      await api.close();
    }
  } finally {
    report.close();
  }
}

async function resumeJob(ctx: Context, io: SubmitIo): Promise<SubmitResult> {
  const { options } = ctx;
  const jobId = options.resume!;
  const extra = (['image', 'model', 'object', 'name', 'description', 'tags', 'license', 'bump', 'version', 'publisher', 'reason', 'correct'] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (extra.length) throw usageError(`--resume takes the settings of the job's first run; leave out ${extra.map((k) => `--${k}`).join(', ')}`);
  const { state, image: bytes } = await loadState(ctx.stateDir, jobId);
  const commit = options.commit === false ? false : state.commit;
  const plan = await planVersion(ctx.registryRoot, state.object, { version: state.version });
  const git = commit ? await prepareCommit(options.cwd, ctx.registryRoot, publishBranch(plan.id, plan.version)) : undefined;
  const report = await createReporter(io, commit ? 8 : 7);
  try {
    report.step(`read the saved image of job ${jobId}`);
    const image: InputImage = { bytes, ...state.image, ...(await describe(bytes, `the saved image of job ${jobId}`)) };
    const api = await connect(ctx, state.api);
    try {
      report.step(`resume job ${jobId} on ${api.label}`);
      const model = await findApiModel(api, state.model);
      return await finishJob(ctx, { ...state, commit }, image, () => api.client.getJob(jobId), model, api, git, report);
    } finally {
      await api.close();
    }
  } finally {
    report.close();
  }
}

/** Waits for the job, then downloads, verifies and publishes its asset; keeps the state file when a later run can finish it. */
async function finishJob(
  ctx: Context,
  state: PublishState,
  image: InputImage,
  first: () => Promise<ApiJob>,
  model: ApiModel,
  api: ApiConnection,
  git: GitTarget | undefined,
  report: Reporter,
): Promise<SubmitResult> {
  const { options } = ctx;
  const jobId = state.jobId;
  try {
    report.step(`wait for job ${jobId}`);
    const job = await apiCall(first, jobId, ctx);
    const backoff = options.backoff ? { ...POLL_BACKOFF, ...options.backoff } : POLL_BACKOFF;
    const done = await apiCall(() => waitForJob(api.client, job, { timeoutMs: options.timeoutMs, backoff, signal: options.signal, onUpdate: (j) => report.job(j) }), jobId, ctx);

    report.step('download and verify the asset');
    const asset = await apiCall(() => api.client.downloadAsset(done), jobId, ctx);
    const format = done.asset?.format ?? model.output.format;
    if (format !== model.output.format) {
      throw new AssetRejected(`job ${jobId} made a ${format} asset; the model "${model.id}" declares ${model.output.format}`);
    }
    await verifyAsset(asset.bytes, format, `the asset of job ${jobId}`);
    report.info(`${asset.bytes.length} bytes, sha256 ${asset.sha256}, ${format === 'ply' ? 'PLY header' : 'gltf-validator'} OK`);

    report.step(`build ${state.object}@${state.version}`);
    const [reference, preview] = await Promise.all([referenceImage(image.bytes), previewImage(image.bytes)]);
    const draft: VersionDraft = {
      id: state.object,
      version: state.version,
      name: state.name,
      description: state.description,
      tags: state.tags,
      ...(state.license !== undefined ? { license: state.license } : {}),
      generator: `${model.provider}/${model.id} ${done.model_version ?? model.version}`,
      createdAt: rfc3339(new Date()),
      provenance: {
        source: `image-to-3D job (${model.id}) from ${image.label}`,
        input: {
          ...(image.url ? { url: image.label } : { filename: image.filename }),
          sha256: sha256Hex(image.bytes),
          byteLength: image.bytes.length,
          format: image.format,
          width: image.width,
          height: image.height,
        },
        pipeline: { runId: jobId, orchestrator: 'aso-registry submit', schemaVersion: '1' },
        generator: { model: model.id, version: done.model_version ?? model.version, provider: model.provider, parameters: model.parameters },
      },
      representations: [
        { rep: { id: 'primary', type: model.output.type, format, mediaType: model.output.media_type }, role: 'primary', bytes: asset.bytes, width: null, height: null },
        reference,
      ],
      preview,
    };
    const signer = await publisherSigner(ctx.env, options.cwd);
    const target: PublishTarget = {
      registryRoot: ctx.registryRoot,
      registryUrl: ctx.registryUrl,
      repoRoot: git?.top ?? options.cwd,
      publisher: signer?.name ?? state.publisher ?? 'unknown',
      signer,
      git,
      signal: options.signal,
      message: (m, p) =>
        [
          `Publish ${m.id}@${m.version}`,
          '',
          `${m.name}: a ${model.output.type} made by ${model.provider}/${model.id} ${done.model_version ?? model.version} (job ${jobId})`,
          `from ${image.label}.`,
          '',
          `Publication: ${p.publicationId}`,
          `Record hash: ${p.recordHash}`,
          `Publisher: ${p.publisher}`,
        ].join('\n'),
    };
    const published = await publishVersion(draft, target, report);
    await removeState(ctx.stateDir, jobId);
    report.close();
    return {
      id: draft.id,
      version: draft.version,
      dir: published.dir,
      publicationId: published.publication.publicationId,
      recordHash: published.publication.recordHash,
      jobId,
      ...(git && published.commit ? { branch: git.branch, commit: published.commit } : {}),
    };
  } catch (error) {
    const failure = toPublishError(error);
    // A job that failed or an asset that is not valid will not get better: forget it. Anything else can be resumed.
    if (isFinalJobError(error) || error instanceof AssetRejected) {
      await removeState(ctx.stateDir, jobId);
      throw failure;
    }
    throw new PublishError(failure.message, jobId, failure.exitCode);
  }
}

function isFinalJobError(error: unknown): boolean {
  return error instanceof JobApiError && error.kind === 'http' && error.status === undefined;
}

/** A JobApiError as the PublishError a person reads. */
function toPublishError(error: unknown): PublishError {
  if (error instanceof PublishError) return error;
  if (error instanceof JobApiError) return new PublishError(error.message, undefined, error.kind === 'aborted' ? 130 : 1);
  return new PublishError(error instanceof Error ? error.message : String(error));
}

/** Runs an API call; API failures become PublishErrors that keep the job's state. */
async function apiCall<T>(call: () => Promise<T>, jobId?: string, ctx?: Context): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof JobApiError)) throw error;
    if (isFinalJobError(error)) throw error;
    if (error.kind === 'http' && error.status === 404 && jobId && ctx) {
      throw new PublishError(`job ${jobId} is not known to the job API (${error.message}); it may have expired, or the API key differs from the one that submitted it`);
    }
    if (error.kind === 'aborted') throw new PublishError(error.message, undefined, 130);
    throw new PublishError(error.message);
  }
}

async function connect(ctx: Context, resume: PublishState['api'] | undefined): Promise<ApiConnection> {
  const { options } = ctx;
  const backoff = options.backoff ? { ...RETRY_BACKOFF, ...options.backoff } : RETRY_BACKOFF;
  return connectApi({
    api: options.api,
    env: ctx.env,
    stateDir: ctx.stateDir,
    ...(resume ? { resume } : {}),
    client: { retries: options.retries, backoff, signal: options.signal, ...(options.maxAssetBytes !== undefined ? { maxAssetBytes: options.maxAssetBytes } : {}) },
  });
}

/** The catalog entry of `id` on the API, or a PublishError that lists the catalog. */
async function findApiModel(api: ApiConnection, id: string): Promise<ApiModel> {
  const models = await apiCall(() => api.client.listModels());
  const model = models.find((m) => m.id === id);
  if (!model) {
    const list = models.map((m) => `${m.id} (${m.name}: ${m.output.type}, ${m.output.format})`).join(', ');
    throw new PublishError(`unknown model "${id}"; ${api.label} offers: ${list || 'no model at all'}`, undefined, 2);
  }
  return model;
}
