/**
 * Replicate's HTTP API (replicate.com/docs: HTTP API reference for predictions and files, input files, rate limits;
 * see docs/providers.md): `POST /v1/models/{owner}/{name}/predictions` `{ input }` (or `POST /v1/predictions`
 * `{ version, input }` for a pinned version) answers the prediction: `id`, `version`, `status` (starting,
 * processing, succeeded, failed, canceled, aborted), `logs`, `output` (the model's own shape; files are URLs) and
 * `error`. `GET /v1/predictions/{id}` reads it, `POST /v1/predictions/{id}/cancel` cancels it. A 429 says
 * `{"detail": "Request was throttled. Your rate limit resets in ~30s."}`. The image goes as a data URI under 1 MB,
 * else through `POST /v1/files` (multipart `content`, answers `urls.get`). The key goes as `Bearer`.
 */
import { glbUrlOf } from './find-glb-url.ts';
import { followTask } from './follow-task.ts';
import { hostedModel, placeImage, record } from './hosted-model.ts';
import { ProviderSetupError, type Provider, type ProviderTask, type TaskStatus } from './provider.ts';
import { dataUri, sendableImage } from './task-image.ts';
import { NotDocumented, VendorHttp, type HostedOptions } from './vendor-http.ts';

const STATUSES: Record<string, TaskStatus> = { starting: 'queued', processing: 'running', succeeded: 'succeeded', failed: 'failed', canceled: 'canceled', aborted: 'failed' };

/** `owner/name`, optionally `:version`. */
const MODEL = /^([A-Za-z0-9][A-Za-z0-9._-]*)\/([A-Za-z0-9][A-Za-z0-9._-]*)(?::([A-Za-z0-9]+))?$/;

/** The largest image sent inline; the documentation recommends data URIs only below 1 MB. */
const DATA_URI_LIMIT = 1024 * 1024;

/** The last percentage a model printed in its logs (progress bars), or 0. */
function logProgress(logs: unknown): number {
  if (typeof logs !== 'string') return 0;
  const all = [...logs.matchAll(/(\d{1,3})%/g)];
  const last = all.length ? Number(all[all.length - 1]![1]) : 0;
  return Math.min(100, last);
}

function readPrediction(body: unknown): ProviderTask {
  const p = record(body);
  if (!p || typeof p.id !== 'string' || p.id === '') throw new NotDocumented('a prediction needs a string "id"');
  const status = typeof p.status === 'string' ? STATUSES[p.status] : undefined;
  if (!status) throw new NotDocumented(`"status" must be one of ${Object.keys(STATUSES).join(', ')}`);
  const error = typeof p.error === 'string' && p.error !== '' ? p.error : p.error != null ? JSON.stringify(p.error) : undefined;
  return {
    id: p.id,
    status,
    progress: status === 'succeeded' ? 100 : logProgress(p.logs),
    vendorStatus: p.status as string,
    ...(error !== undefined && (status === 'failed' || status === 'canceled') ? { error } : {}),
    ...(typeof p.version === 'string' && p.version !== '' ? { modelVersion: p.version } : {}),
    raw: p,
  };
}

/** The Replicate adapter. */
export function createReplicateProvider(options: HostedOptions, dataUriLimit = DATA_URI_LIMIT): Provider {
  const vendor = {
    vendor: 'replicate',
    auth: { authorization: `Bearer ${options.key}` },
    keyVariable: 'REPLICATE_API_TOKEN',
    errorText: (body: unknown): string | undefined => {
      const e = record(body);
      return typeof e?.detail === 'string' ? e.detail : typeof e?.title === 'string' ? e.title : undefined;
    },
    waitFromBody: (body: unknown): number | undefined => {
      const detail = record(body)?.detail;
      const m = typeof detail === 'string' ? /resets in ~?(\d+)\s*s/.exec(detail) : null;
      return m ? Number(m[1]) * 1000 : undefined;
    },
  };
  const http = new VendorHttp({ ...options, ...vendor });
  const taskName = (id: string): string => `replicate prediction ${id}`;
  const get = (id: string): Promise<ProviderTask> => http.json('GET', `/v1/predictions/${encodeURIComponent(id)}`, {}, (a) => readPrediction(a.body));
  return {
    name: 'replicate',
    label: `replicate (${http.baseUrl})`,
    baseUrl: http.baseUrl,
    taskName,
    async model(id, opts) {
      if (!MODEL.test(id)) throw new ProviderSetupError(`--model "${id}" is not a Replicate model (owner/name, or owner/name:version)`);
      return hostedModel('replicate', id, opts, {});
    },
    async create({ model, image, options: opts }) {
      const sendable = await sendableImage(image, ['jpeg', 'png', 'webp']);
      let ref: string;
      if (sendable.bytes.length < dataUriLimit) ref = dataUri(sendable);
      else {
        const form = (): FormData => {
          const f = new FormData();
          f.set('content', new Blob([sendable.bytes as Uint8Array<ArrayBuffer>], { type: sendable.mediaType }), sendable.filename);
          return f;
        };
        ref = await http.json('POST', '/v1/files', { form }, (a) => {
          const url = record(record(a.body)?.urls)?.get;
          if (typeof url !== 'string' || url === '') throw new NotDocumented('the file answer needs "urls.get"');
          return url;
        });
      }
      const input = placeImage(opts, 'image', ref);
      const [, owner, name, version] = MODEL.exec(model.id)!;
      const created = version
        ? await http.json('POST', '/v1/predictions', { json: { version, input } }, (a) => readPrediction(a.body))
        : await http.json('POST', `/v1/models/${owner}/${name}/predictions`, { json: { input } }, (a) => readPrediction(a.body));
      return created;
    },
    get,
    follow: (first, follow) => followTask(get, first, taskName(first.id), follow),
    async result(task) {
      const url = glbUrlOf(record(task.raw)?.output, `the output of ${taskName(task.id)}`, 'a model');
      const file = await http.download(url, `the GLB of ${taskName(task.id)}`);
      return { ...file, format: 'glb' };
    },
    async cancel(id) {
      const own = new VendorHttp({ ...options, ...vendor, signal: AbortSignal.timeout(15_000), retries: 1 });
      await own.json('POST', `/v1/predictions/${encodeURIComponent(id)}/cancel`, {}, () => undefined);
    },
    close: async () => {},
  };
}
