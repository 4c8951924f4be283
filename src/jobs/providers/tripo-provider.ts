/**
 * Tripo's API v2 (docs.tripo3d.ai: upload directly, image_to_model, task query, errors and error handling; see
 * docs/providers.md): the image is uploaded with `POST /v2/openapi/upload` (multipart `file`, answers `data.image_token`),
 * then `POST /v2/openapi/task` `{ type: "image_to_model", file: { type, file_token }, model_version, ... }` answers
 * `data.task_id`; `GET /v2/openapi/task/{id}` answers `data` with `status` (queued, running, success, failed,
 * cancelled, banned, expired, unknown), `progress`, `output.pbr_model` / `output.model` (signed URLs) and, once failed,
 * `error_code`. Every answer is `{ code, data }`; errors are `{ code, message, suggestion }`. The API documents no
 * way to cancel a task.
 */
import { JobApiError } from '../client/job-api-error.ts';
import { followTask } from './follow-task.ts';
import { hostedModel, record } from './hosted-model.ts';
import { ResultRejected, type Provider, type ProviderTask, type TaskStatus } from './provider.ts';
import { sendableImage } from './task-image.ts';
import { NotDocumented, VendorHttp, type HostedOptions, type VendorAnswer } from './vendor-http.ts';

const STATUSES: Record<string, TaskStatus> = {
  queued: 'queued',
  running: 'running',
  success: 'succeeded',
  failed: 'failed',
  cancelled: 'canceled',
  banned: 'failed',
  expired: 'failed',
  unknown: 'failed',
};

/** The file types the task's `file.type` names, by sharp's format name. */
const FILE_TYPES: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** `data` of a successful answer; a `code` other than 0 is an error even with status 200. */
function dataOf(answer: VendorAnswer, action: string): Record<string, unknown> {
  const body = record(answer.body);
  if (!body || typeof body.code !== 'number') throw new NotDocumented('an answer needs a numeric "code"');
  if (body.code !== 0) throw new JobApiError('http', `tripo: ${action} answered code ${body.code}${typeof body.message === 'string' ? ` (${body.message})` : ''}`, answer.status, String(body.code));
  const data = record(body.data);
  if (!data) throw new NotDocumented('an answer needs a "data" object');
  return data;
}

/** The task in a Tripo answer. */
function readTask(answer: VendorAnswer): ProviderTask {
  const t = dataOf(answer, 'the task query');
  if (typeof t.task_id !== 'string' || t.task_id === '') throw new NotDocumented('a task needs a string "task_id"');
  const status = typeof t.status === 'string' ? STATUSES[t.status] : undefined;
  if (!status) throw new NotDocumented(`"status" must be one of ${Object.keys(STATUSES).join(', ')}`);
  const progress = typeof t.progress === 'number' && Number.isFinite(t.progress) ? Math.min(100, Math.max(0, t.progress)) : 0;
  const vendorStatus = t.status as string;
  const reason = [typeof t.error_msg === 'string' && t.error_msg !== '' ? t.error_msg : vendorStatus, t.error_code !== undefined ? `error_code ${String(t.error_code)}` : undefined]
    .filter((p) => p !== undefined)
    .join(', ');
  const version = record(t.input)?.model_version;
  return {
    id: t.task_id,
    status,
    progress: status === 'succeeded' ? 100 : progress,
    vendorStatus,
    ...(status === 'failed' || status === 'canceled' ? { error: reason } : {}),
    ...(typeof version === 'string' && version !== '' ? { modelVersion: version } : {}),
    raw: t,
  };
}

/** The Tripo adapter. */
export function createTripoProvider(options: HostedOptions): Provider {
  const http = new VendorHttp({
    ...options,
    vendor: 'tripo',
    auth: { authorization: `Bearer ${options.key}` },
    keyVariable: 'TRIPO_API_KEY',
    errorText: (body) => {
      const e = record(body);
      if (typeof e?.message !== 'string') return undefined;
      return `${e.message}${e.code !== undefined ? ` (code ${String(e.code)})` : ''}${typeof e.suggestion === 'string' && e.suggestion !== '' ? `; ${e.suggestion}` : ''}`;
    },
  });
  const taskName = (id: string): string => `tripo task ${id}`;
  const get = (id: string): Promise<ProviderTask> => http.json('GET', `/v2/openapi/task/${encodeURIComponent(id)}`, {}, readTask);
  return {
    name: 'tripo',
    label: `tripo (${http.baseUrl})`,
    baseUrl: http.baseUrl,
    taskName,
    model: async (id, opts) => hostedModel('tripo', id, opts, { type: 'the adapter (image_to_model)', file: '--image', model_version: '--model' }),
    async create({ model, image, options: opts }) {
      const sendable = await sendableImage(image, Object.keys(FILE_TYPES));
      const form = (): FormData => {
        const f = new FormData();
        f.set('file', new Blob([sendable.bytes as Uint8Array<ArrayBuffer>], { type: sendable.mediaType }), sendable.filename);
        return f;
      };
      const token = await http.json('POST', '/v2/openapi/upload', { form }, (a) => {
        const t = dataOf(a, 'the upload').image_token;
        if (typeof t !== 'string' || t === '') throw new NotDocumented('the upload answer needs "data.image_token"');
        return { token: t };
      });
      const body = { ...opts, type: 'image_to_model', file: { type: FILE_TYPES[sendable.format], file_token: token.token }, model_version: model.id };
      const created = await http.json('POST', '/v2/openapi/task', { json: body }, (a) => {
        const id = dataOf(a, 'the task creation').task_id;
        if (typeof id !== 'string' || id === '') throw new NotDocumented('the answer needs "data.task_id"');
        return { id };
      });
      return { id: created.id, status: 'queued', progress: 0, vendorStatus: 'queued' };
    },
    get,
    follow: (first, follow) => followTask(get, first, taskName(first.id), follow),
    async result(task) {
      const output = record(record(task.raw)?.output);
      const url = [output?.pbr_model, output?.model, output?.base_model].find((u): u is string => typeof u === 'string' && u !== '');
      if (!url) throw new ResultRejected(`${taskName(task.id)} succeeded without a model: its output has no pbr_model, model or base_model`);
      const file = await http.download(url, `the model of ${taskName(task.id)}`);
      return { ...file, format: 'glb' };
    },
    close: async () => {},
  };
}
