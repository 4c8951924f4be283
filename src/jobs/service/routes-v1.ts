/** The `/v1` API: models, jobs, their events and assets, the webhook secret; each call authenticated by an API key. */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CATALOG_NOTE, findModel, MODEL_CATALOG } from '../models/catalog.ts';
import { IdempotencyConflict, type ApiKeyRecord, type BlobStore, type JobRecord, type JobStore, type KeyStore } from '../store/types.ts';
import { checkWebhookUrl } from '../webhooks/webhook-url.ts';
import type { AddressPolicy } from './address-policy.ts';
import { ApiError } from './api-error.ts';
import { authError } from './authenticate.ts';
import { sendJobEvents, type EventStreamOptions } from './event-stream.ts';
import { checkImageUrl, FetchError } from './fetch-image.ts';
import { checkImage, ImageRejection } from './image-check.ts';
import { toJobDocument } from './job-document.ts';
import { assetBlob, type JobRunner, type RunnerLimits } from './job-runner.ts';
import type { JobWatch } from './job-watch.ts';
import { idempotencyKey, readCreateRequest, requestHash, type CreateRequest } from './request-body.ts';
import type { UploadSlots } from './upload-slots.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
}

/** What the routes need. */
export interface V1Deps {
  jobs: JobStore;
  blobs: BlobStore;
  keys: KeyStore;
  runner: JobRunner;
  limits: RunnerLimits;
  policy: AddressPolicy;
  publicUrl: string | undefined;
  /** The uploads read at once, per key and in all. */
  uploads: UploadSlots;
  maxCreates: number;
  windowMs: number;
  /** Wakes the event streams of a job when it changes. */
  watch: JobWatch;
  events: EventStreamOptions;
}

/** The catalog entry as the API shows it. */
function modelJson(m: (typeof MODEL_CATALOG)[number]): Record<string, unknown> {
  return {
    id: m.id,
    object: 'model',
    name: m.name,
    description: m.description,
    version: m.version,
    provider: m.provider,
    method: m.method,
    learned: false,
    output: { type: m.type, format: m.format, media_type: m.mediaType },
    parameters: m.parameters,
  };
}

/** Registers the `/v1` routes on `app` (mount it with the prefix `/v1`). */
export async function v1Routes(app: FastifyInstance, deps: V1Deps): Promise<void> {
  const { jobs, blobs, runner, limits, policy } = deps;
  const pending = new Map<string, Promise<unknown>>();
  app.removeContentTypeParser('text/plain');

  // The key was looked up before the rate limit (server.ts), which runs with the routes' own onRequest hooks; a request
  // without a live key stops in the next phase, before its body is read.
  app.addHook('preParsing', async (request) => {
    if (!request.apiKey) throw authError(request.headers.authorization);
  });

  const baseUrl = (request: FastifyRequest): string => deps.publicUrl ?? `${request.protocol}://${request.host}`;
  const owned = async (request: FastifyRequest, id: string): Promise<JobRecord> => {
    const job = await jobs.get(id);
    if (!job || job.owner !== request.apiKey!.id) throw new ApiError(404, 'job_not_found', `no job "${id}" for this API key`);
    return job;
  };

  app.get('/models', async () => ({ object: 'list', note: CATALOG_NOTE, data: MODEL_CATALOG.map(modelJson) }));

  app.get('/models/:id', async (request) => {
    const { id } = request.params as { id: string };
    const model = findModel(id);
    if (!model) throw new ApiError(404, 'model_not_found', `no model "${id}"; the catalog has ${MODEL_CATALOG.map((m) => m.id).join(', ')}`);
    return modelJson(model);
  });

  app.post('/jobs', { config: { rateLimit: { max: deps.maxCreates, timeWindow: deps.windowMs } } }, async (request, reply) => {
    const owner = request.apiKey!.id;
    const key = idempotencyKey(request);
    // A slot is taken before the body is read; the staged file of an upload is gone once the request ends, stored or not.
    const release = request.isMultipart() ? deps.uploads.acquire(owner) : undefined;
    let body: CreateRequest | undefined;
    try {
      body = await readCreateRequest(request, { maxImageBytes: limits.maxImageBytes, temporaryPath: () => blobs.temporaryPath() });
      return await answer(request, reply, owner, key, body);
    } finally {
      release?.();
      if (body?.upload) await rm(body.upload.path, { force: true });
    }
  });

  const answer = async (request: FastifyRequest, reply: FastifyReply, owner: string, key: string | undefined, body: CreateRequest): Promise<FastifyReply> => {
    const modelId = typeof body.model === 'string' ? body.model : undefined;
    if (body.model === undefined) throw new ApiError(400, 'invalid_request', `field "model" is required; one of ${MODEL_CATALOG.map((m) => m.id).join(', ')}`);
    if (modelId === undefined) throw new ApiError(400, 'invalid_request', 'field "model" must be a string');
    if (!key) {
      const job = await create(owner, modelId, body, null, request);
      return reply.code(202).header('location', `/v1/jobs/${job.id}`).send(toJobDocument(job, baseUrl(request)));
    }

    const slot = `${owner}\n${key}`;
    while (pending.has(slot)) await pending.get(slot)!.catch(() => {});
    const hash = requestHash(modelId, body);
    const replay = async (): Promise<JobRecord | undefined> => {
      const existing = await jobs.findByIdempotencyKey(owner, key);
      if (!existing) return undefined;
      if (existing.idempotency?.requestHash !== hash) {
        throw new ApiError(422, 'idempotency_key_reused', `Idempotency-Key "${key}" was used with another request (job ${existing.id}); use a new key for a new job`);
      }
      void reply.header('idempotent-replayed', 'true');
      return existing;
    };
    const work = (async () => {
      const existing = await replay();
      if (existing) return existing;
      try {
        return await create(owner, modelId, body, { key, requestHash: hash }, request);
      } catch (err) {
        // Another API process stored a job with this key between the lookup and the insert: answer with that job.
        if (err instanceof IdempotencyConflict) return (await replay()) ?? Promise.reject(err);
        throw err;
      }
    })();
    pending.set(slot, work);
    try {
      const job = await work;
      return reply.code(202).header('location', `/v1/jobs/${job.id}`).send(toJobDocument(job, baseUrl(request)));
    } finally {
      pending.delete(slot);
    }
  };

  const create = async (owner: string, modelId: string, body: CreateRequest, idempotency: JobRecord['idempotency'], request: FastifyRequest): Promise<JobRecord> => {
    const model = findModel(modelId);
    if (!model) throw new ApiError(422, 'unknown_model', `model "${modelId}" is not in the catalog; use one of ${MODEL_CATALOG.map((m) => m.id).join(', ')}`);
    const webhook = body.webhookUrl === undefined ? null : { url: await checkWebhookUrl(body.webhookUrl, policy), baseUrl: baseUrl(request) };
    let input: JobRecord['input'];
    try {
      if (body.upload) {
        await checkImage(body.upload, limits);
        input = { kind: 'upload', filename: body.filename, byteLength: body.upload.byteLength, sha256: body.upload.sha256 };
      } else {
        await checkImageUrl(body.imageUrl, policy);
        input = { kind: 'url', url: body.imageUrl };
      }
    } catch (err) {
      if (err instanceof ImageRejection) throw new ApiError(err.status, err.code, err.message);
      if (err instanceof FetchError) throw new ApiError(err.code === 'invalid_image_url' ? 400 : 422, err.code, err.message);
      throw err;
    }
    const now = new Date().toISOString();
    const job: JobRecord = {
      id: randomUUID(),
      owner,
      model: model.id,
      modelVersion: model.version,
      status: 'queued',
      progress: 0,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
      attempts: 0,
      input,
      idempotency,
      asset: null,
      error: null,
      webhook,
    };
    await runner.submit(job, body.upload);
    request.log.info({ job: job.id, model: job.model }, 'job queued');
    return job;
  };

  app.get('/jobs', async (request) => {
    const raw = (request.query as { limit?: string }).limit;
    const limit = raw === undefined ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new ApiError(400, 'invalid_request', 'query parameter "limit" must be an integer from 1 to 200');
    const list = await jobs.listByOwner(request.apiKey!.id, limit);
    return { object: 'list', data: list.map((j) => toJobDocument(j, baseUrl(request))) };
  });

  app.get('/jobs/:id', async (request) => {
    const job = await owned(request, (request.params as { id: string }).id);
    return toJobDocument(job, baseUrl(request));
  });

  app.post('/jobs/:id/cancel', async (request) => {
    const job = await owned(request, (request.params as { id: string }).id);
    if (job.status === 'succeeded' || job.status === 'failed') {
      throw new ApiError(422, 'job_finished', `job ${job.id} has ${job.status} already and cannot be canceled`);
    }
    const canceled = (await runner.cancel(job.id)) ?? job;
    return toJobDocument(canceled, baseUrl(request));
  });

  app.get('/jobs/:id/events', async (request, reply) => {
    const job = await owned(request, (request.params as { id: string }).id);
    return sendJobEvents(request, reply, job.id, baseUrl(request), { jobs, watch: deps.watch, options: deps.events });
  });

  app.get('/webhooks/secret', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { object: 'webhook_secret', secret: await deps.keys.webhookSecret(request.apiKey!.id) };
  });

  app.get('/jobs/:id/asset', async (request, reply) => sendAsset(request, reply, await owned(request, (request.params as { id: string }).id), blobs));
}

async function sendAsset(request: FastifyRequest, reply: FastifyReply, job: JobRecord, blobs: BlobStore): Promise<FastifyReply> {
  if (job.status !== 'succeeded' || !job.asset) {
    throw new ApiError(404, 'asset_not_ready', `job ${job.id} is ${job.status}; its asset can be downloaded once it has succeeded`);
  }
  const name = assetBlob(job);
  const size = await blobs.size(name);
  if (size === undefined) throw new Error(`the asset file of job ${job.id} is missing`);
  const { sha256, mediaType, format } = job.asset;
  const base64 = Buffer.from(sha256, 'hex').toString('base64');
  const etag = `"${sha256}"`;
  void reply
    .header('content-type', mediaType)
    .header('x-content-sha256', sha256)
    .header('repr-digest', `sha-256=:${base64}:`)
    .header('digest', `sha-256=${base64}`)
    .header('etag', etag)
    .header('cache-control', 'private, max-age=31536000, immutable')
    .header('content-disposition', `attachment; filename="${job.id}.${format}"`);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.header('content-length', String(size)).send(await blobs.stream(name));
}
