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
import type { ApiJob } from '../jobs/client/parse-job.ts';
import { createAsoProvider } from '../jobs/providers/aso-provider.ts';
import { openHostedProvider, type HostedName } from '../jobs/providers/open-provider.ts';
import { ProviderSetupError, ResultRejected, type OptionValue, type Provider, type ProviderModel, type ProviderName, type ProviderTask } from '../jobs/providers/provider.ts';
import type { RetryInfo } from '../jobs/providers/vendor-http.ts';
import { connectApi } from './connect-api.ts';
import { correct } from './correct.ts';
import { prepareCommit, publishBranch, type GitTarget } from './git-publish.ts';
import { describe, readInputImage, type InputImage } from './input-image.ts';
import { planVersion } from './plan-version.ts';
import { AssetRejected, PublishError, usageError } from './publish-error.ts';
import { publishVersion, type PublishTarget } from './publish-version.ts';
import { previewImage, referenceImage } from './reference-images.ts';
import { createReporter, type Reporter, type SubmitIo } from './reporter.ts';
import { loadState, removeState, saveState, type PublishState } from './state-file.ts';
import { checkMetadataFlags, contextBlobs, publisherOf, publisherSigner, type Context, type SubmitResult } from './publish-context.ts';
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
  if (options.correct !== undefined) {
    if (options.provider !== undefined || options.options !== undefined) throw usageError('--correct keeps the bytes of the version it corrects; leave out --provider and --option');
    return correct(ctx, io);
  }
  if (options.resume !== undefined) return resumeJob(ctx, io);
  return newJob(ctx, io);
}

async function newJob(ctx: Context, io: SubmitIo): Promise<SubmitResult> {
  const { options } = ctx;
  for (const [flag, value] of [['--image', options.image], ['--model', options.model], ['--object', options.object]] as const) {
    if (value === undefined || value.trim() === '') throw usageError(`${flag} is required`);
  }
  if (options.reason !== undefined) throw usageError('--reason goes with --correct <id>@<version>');
  const providerName = options.provider ?? 'aso';
  checkProviderFlags(providerName, options);
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

    const { provider, state: api } = await openProvider(ctx, providerName, undefined, report);
    try {
      report.step(`submit a "${options.model}" ${providerName === 'aso' ? 'job' : 'task'} to ${provider.label}`);
      const providerOptions = options.options ?? {};
      const model = await providerModel(provider, options.model!, providerOptions);
      const latest = plan.latest;
      const made = `the ${model.name} image-to-3D model${providerName === 'aso' ? '' : ` on ${providerName}`}`;
      const state: SubmitState = {
        kind: 'aso-submit-state',
        jobId: '',
        api,
        ...(providerName !== 'aso' ? { provider: { name: providerName, options: providerOptions } } : {}),
        model: model.id,
        object: plan.id,
        version: plan.version,
        name: options.name ?? latest?.name ?? plan.id,
        description: options.description ?? latest?.description ?? `Made from ${image.filename} by ${made}.`,
        tags: options.tags ?? latest?.tags ?? [],
        ...((options.license ?? latest?.license) !== undefined ? { license: options.license ?? latest!.license } : {}),
        publisher,
        commit,
        image: { filename: image.filename, label: image.label, ...(image.url ? { url: image.url } : {}) },
        submittedAt: new Date().toISOString(),
      };
      const idempotencyKey = randomUUID();
      const sent = { bytes: image.bytes, filename: image.filename, format: image.format, ...(image.url ? { url: image.url } : {}) };
      const job = await apiCall(() => provider.create({ model, image: sent, options: providerOptions, idempotencyKey }));
      state.jobId = job.id;
      await saveState(ctx.stateDir, state, image.bytes);
      const again = providerName === 'aso' ? `--resume ${job.id}` : `--provider ${providerName} --resume ${job.id}`;
      report.info(`${provider.taskName(job.id)} ${job.status}; if this stops, continue with: npm run submit -- ${again}`);
      return await finishJob(ctx, state, image, async () => job, model, provider, git, report);
    } finally {
      await provider.close();
    }
  } finally {
    report.close();
  }
}

async function resumeJob(ctx: Context, io: SubmitIo): Promise<SubmitResult> {
  const { options } = ctx;
  const jobId = options.resume!;
  const extra = (['image', 'model', 'object', 'name', 'description', 'tags', 'license', 'bump', 'version', 'publisher', 'reason', 'correct'] as const)
    .filter((k) => options[k] !== undefined)
    .map((k) => `--${k}`);
  if (options.options !== undefined) extra.push('--option');
  if (extra.length) throw usageError(`--resume takes the settings of the job's first run; leave out ${extra.join(', ')}`);
  const loaded = await loadState(ctx.stateDir, jobId);
  const state: SubmitState = loaded.state;
  const bytes = loaded.image;
  const providerName: ProviderName = state.provider?.name ?? 'aso';
  if (options.provider !== undefined && options.provider !== providerName) {
    throw usageError(`--resume ${jobId}: it was submitted with --provider ${providerName}, not --provider ${options.provider}`);
  }
  checkProviderFlags(providerName, options);
  const commit = options.commit === false ? false : state.commit;
  const plan = await planVersion(ctx.registryRoot, state.object, { version: state.version });
  const git = commit ? await prepareCommit(options.cwd, ctx.registryRoot, publishBranch(plan.id, plan.version)) : undefined;
  const report = await createReporter(io, commit ? 8 : 7);
  try {
    report.step(`read the saved image of job ${jobId}`);
    const image: InputImage = { bytes, ...state.image, ...(await describe(bytes, `the saved image of job ${jobId}`)) };
    const { provider } = await openProvider(ctx, providerName, state, report);
    try {
      report.step(`resume ${provider.taskName(jobId)} on ${provider.label}`);
      const model = await providerModel(provider, state.model, state.provider?.options ?? {});
      return await finishJob(ctx, { ...state, commit }, image, () => provider.get(jobId), model, provider, git, report);
    } finally {
      await provider.close();
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
  first: () => Promise<ProviderTask>,
  model: ProviderModel,
  provider: Provider,
  git: GitTarget | undefined,
  report: Reporter,
): Promise<SubmitResult> {
  const { options } = ctx;
  const jobId = state.jobId;
  const name = provider.taskName(jobId);
  const ref: TaskRef = { name, api: provider.name === 'aso' ? 'the job API' : provider.name };
  let finished = false;
  try {
    report.step(`wait for ${name}`);
    const job = await apiCall(first, ref);
    const backoff = options.backoff ? { ...POLL_BACKOFF, ...options.backoff } : POLL_BACKOFF;
    const done = await apiCall(
      () => provider.follow(job, { timeoutMs: options.timeoutMs, backoff, signal: options.signal, onUpdate: (t) => report.job(provider.name === 'aso' ? (t.raw as ApiJob) : jobView(t, model)) }),
      ref,
    );
    finished = true;

    report.step('download and verify the asset');
    const asset = await apiCall(() => provider.result(done), ref);
    const format = asset.format ?? model.output.format;
    if (format !== model.output.format) {
      throw new AssetRejected(`${name} made a ${format} asset; the model "${model.id}" declares ${model.output.format}`);
    }
    if (provider.name !== 'aso' && !isGlb(asset.bytes)) throw new AssetRejected(`the asset of ${name} is not a GLB file: it starts with ${startOf(asset.bytes)}, where a GLB starts with "glTF"`);
    await verifyAsset(asset.bytes, format, `the asset of ${name}`);
    report.info(`${asset.bytes.length} bytes, sha256 ${asset.sha256}, ${format === 'ply' ? 'PLY header' : 'gltf-validator'} OK`);

    report.step(`build ${state.object}@${state.version}`);
    const version = done.modelVersion ?? model.version;
    const [reference, preview] = await Promise.all([referenceImage(image.bytes), previewImage(image.bytes)]);
    const draft: VersionDraft = {
      id: state.object,
      version: state.version,
      name: state.name,
      description: state.description,
      tags: state.tags,
      ...(state.license !== undefined ? { license: state.license } : {}),
      generator: `${model.provider}/${model.id}${version ? ` ${version}` : ''}`,
      createdAt: rfc3339(new Date()),
      provenance: {
        source: provider.name === 'aso' ? `image-to-3D job (${model.id}) from ${image.label}` : `image-to-3D task (${provider.name} ${model.id}) from ${image.label}`,
        input: {
          ...(image.url ? { url: image.label } : { filename: image.filename }),
          sha256: sha256Hex(image.bytes),
          byteLength: image.bytes.length,
          format: image.format,
          width: image.width,
          height: image.height,
        },
        pipeline: { runId: jobId, orchestrator: 'aso-registry submit', schemaVersion: '1' },
        generator: { model: model.id, ...(version ? { version } : {}), provider: model.provider, parameters: model.parameters },
      },
      representations: [
        { rep: { id: 'primary', type: model.output.type, format, mediaType: model.output.mediaType }, role: 'primary', bytes: asset.bytes, width: null, height: null },
        reference,
      ],
      preview,
    };
    const signer = await publisherSigner(ctx.env, options.cwd);
    const blobs = contextBlobs(ctx);
    const target: PublishTarget = {
      ...(blobs ? { blobs } : {}),
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
          `${m.name}: a ${model.output.type} made by ${model.provider}/${model.id}${version ? ` ${version}` : ''} (${name})`,
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
    // Ctrl-C while the task runs stops it where the provider can, so that nothing is left running (and billed).
    if (options.signal?.aborted && !finished && provider.cancel) {
      try {
        await provider.cancel(jobId);
      } catch (cancelError) {
        throw new PublishError(`${failure.message}; ${name} could not be canceled (${(cancelError as Error).message}): cancel it with ${provider.name}, or continue with --resume`, jobId, 130);
      }
      await removeState(ctx.stateDir, jobId);
      throw new PublishError(`${failure.message}; ${name} was canceled`, undefined, 130);
    }
    // A job that failed or an asset that is not valid will not get better: forget it. Anything else can be resumed.
    if (isFinalJobError(error) || error instanceof AssetRejected || error instanceof ResultRejected) {
      await removeState(ctx.stateDir, jobId);
      throw failure;
    }
    throw new PublishError(failure.message, jobId, failure.exitCode);
  }
}

/** A hosted task in the shape the progress lines show a job in. */
function jobView(task: ProviderTask, model: ProviderModel): ApiJob {
  return {
    id: task.id,
    status: task.status,
    model: model.id,
    model_version: task.modelVersion ?? null,
    progress: task.progress,
    created_at: null,
    updated_at: null,
    download_url: null,
    asset: null,
    error: null,
  };
}

/** Whether the bytes start as a GLB does (the magic `glTF`). */
function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/** The first bytes of a file, for a message: as text when they read as text, else in hex. */
function startOf(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'nothing (it is empty)';
  const head = bytes.subarray(0, 24);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (/^[\x20-\x7e\t\r\n]+$/.test(text)) return JSON.stringify(text.replace(/\s+/g, ' ') + (bytes.length > head.length ? '...' : ''));
  return `the bytes ${Buffer.from(bytes.subarray(0, 8)).toString('hex')}`;
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

/** A task for messages: how it is named, and what it runs on. */
interface TaskRef {
  name: string;
  api: string;
}

/** Runs an API call; API failures become PublishErrors that keep the job's state. */
async function apiCall<T>(call: () => Promise<T>, task?: TaskRef): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof JobApiError)) throw error;
    if (isFinalJobError(error)) throw error;
    if (error.kind === 'http' && error.status === 404 && task) {
      throw new PublishError(`${task.name} is not known to ${task.api} (${error.message}); it may have expired, or the API key differs from the one that submitted it`);
    }
    if (error.kind === 'aborted') throw new PublishError(error.message, undefined, 130);
    throw new PublishError(error.message);
  }
}

/** The state a publish keeps for `--resume`: a hosted task also remembers its provider and the options sent. */
type SubmitState = PublishState & { provider?: { name: HostedName; options: Record<string, OptionValue> } };

/** Refuses flags that belong to another provider. */
function checkProviderFlags(name: ProviderName, options: SubmitOptions): void {
  if (name === 'aso') {
    if (options.options !== undefined) throw usageError('--option is for a hosted provider (--provider meshy, tripo, fal or replicate); the job API\'s models take none');
    return;
  }
  if (options.api !== undefined) throw usageError(`--api names the job API of --provider aso; --provider ${name} talks to the API its base URL variable names (see docs/providers.md)`);
}

/** Opens the provider: the job API as today (built-in or `--api`), or a hosted generator with its key. */
async function openProvider(ctx: Context, name: ProviderName, resume: SubmitState | undefined, report: Reporter): Promise<{ provider: Provider; state: PublishState['api'] }> {
  const { options } = ctx;
  const backoff = options.backoff ? { ...RETRY_BACKOFF, ...options.backoff } : RETRY_BACKOFF;
  if (name === 'aso') {
    const api = await connectApi({
      api: options.api,
      env: ctx.env,
      stateDir: ctx.stateDir,
      ...(resume ? { resume: resume.api } : {}),
      client: { retries: options.retries, backoff, signal: options.signal, ...(options.maxAssetBytes !== undefined ? { maxAssetBytes: options.maxAssetBytes } : {}) },
    });
    return { provider: createAsoProvider(api), state: api.state };
  }
  const resumedBase = resume && 'url' in resume.api ? resume.api.url : undefined;
  try {
    const provider = openHostedProvider(
      name,
      ctx.env,
      {
        ...(options.retries !== undefined ? { retries: options.retries } : {}),
        backoff,
        ...(options.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}),
        ...(options.maxAssetBytes !== undefined ? { maxAssetBytes: options.maxAssetBytes } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onRetry: (info) => report.info(retryLine(info)),
      },
      resumedBase,
    );
    return { provider, state: { url: provider.baseUrl } };
  } catch (error) {
    if (error instanceof ProviderSetupError) throw usageError(error.message);
    throw error;
  }
}

/** A retry as a progress line: why, and how long it waits. */
function retryLine(info: RetryInfo): string {
  const wait = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);
  return `${info.reason}; retry ${info.attempt} in ${wait(info.delayMs)}${info.askedMs !== undefined ? ` (asked to wait ${wait(info.askedMs)})` : ''}`;
}

/** The model `--model` names on the provider; a model it does not have is a usage error. */
async function providerModel(provider: Provider, id: string, options: Record<string, OptionValue>): Promise<ProviderModel> {
  try {
    return await apiCall(() => provider.model(id, options));
  } catch (error) {
    if (error instanceof ProviderSetupError) throw usageError(error.message);
    throw error;
  }
}
