/**
 * This project's job API (`/v1/models`, `/v1/jobs`) behind the provider interface, through the job client as it is:
 * the catalog names the model, `createJob` submits, `waitForJob` follows, `downloadAsset` verifies the declared length
 * and hash. A publish interrupted here keeps its job for `--resume`, so no cancel is offered.
 */
import type { JobClient } from '../client/job-client.ts';
import type { ApiJob } from '../client/parse-job.ts';
import { waitForJob } from '../client/wait-for-job.ts';
import { ProviderSetupError, type Provider, type ProviderTask } from './provider.ts';

/** An open connection to a job API (the built-in service or another). */
export interface AsoConnection {
  client: JobClient;
  /** For messages: the URL, or that it is the built-in service. */
  label: string;
  close(): Promise<void>;
}

/** A job as a provider task; the job itself rides along for the next steps. */
function toTask(job: ApiJob): ProviderTask {
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    vendorStatus: job.status,
    ...(job.error ? { error: `${job.error.message} (${job.error.code})` } : {}),
    ...(job.model_version ? { modelVersion: job.model_version } : {}),
    raw: job,
  };
}

/** The job document a task came from. */
function jobOf(task: ProviderTask): ApiJob {
  return task.raw as ApiJob;
}

/** The adapter over an open connection. */
export function createAsoProvider(api: AsoConnection): Provider {
  const { client } = api;
  return {
    name: 'aso',
    label: api.label,
    baseUrl: client.baseUrl,
    taskName: (id) => `job ${id}`,
    async model(id) {
      const models = await client.listModels();
      const m = models.find((candidate) => candidate.id === id);
      if (!m) {
        const list = models.map((c) => `${c.id} (${c.name}: ${c.output.type}, ${c.output.format})`).join(', ');
        throw new ProviderSetupError(`unknown model "${id}"; ${api.label} offers: ${list || 'no model at all'}`);
      }
      return { id: m.id, name: m.name, version: m.version, provider: m.provider, output: { type: m.output.type, format: m.output.format, mediaType: m.output.media_type }, parameters: m.parameters };
    },
    async create({ model, image, idempotencyKey }) {
      const job = await client.createJob(
        image.url ? { model: model.id, imageUrl: image.url, idempotencyKey } : { model: model.id, image: { bytes: image.bytes, filename: image.filename }, idempotencyKey },
      );
      return toTask(job);
    },
    get: async (id) => toTask(await client.getJob(id)),
    async follow(first, options) {
      const done = await waitForJob(client, jobOf(first), {
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.backoff ? { backoff: options.backoff } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onUpdate: (job) => options.onUpdate?.(toTask(job)),
      });
      return toTask(done);
    },
    async result(task) {
      const job = jobOf(task);
      const asset = await client.downloadAsset(job);
      return { bytes: asset.bytes, sha256: asset.sha256, ...(job.asset ? { format: job.asset.format } : {}) };
    },
    close: () => api.close(),
  };
}
