/**
 * Meshy's Image to 3D API (docs.meshy.ai/api/image-to-3d, errors, rate-limits; see docs/providers.md):
 * `POST /openapi/v1/image-to-3d` `{ image_url, ai_model, ... }` answers `{ result: <task id> }`;
 * `GET /openapi/v1/image-to-3d/{id}` is the task: `status` PENDING, IN_PROGRESS, SUCCEEDED, FAILED or CANCELED,
 * `progress` 0-100, `task_error.message`, `model_urls.glb` (a signed, expiring URL). Errors are `{ message }`.
 * The image goes as a data URI (jpg or png). The API documents no way to cancel a running task.
 */
import { followTask } from './follow-task.ts';
import { hostedModel, record } from './hosted-model.ts';
import { ResultRejected, type Provider, type ProviderTask, type TaskStatus } from './provider.ts';
import { dataUri, sendableImage } from './task-image.ts';
import { NotDocumented, VendorHttp, type HostedOptions } from './vendor-http.ts';

const STATUSES: Record<string, TaskStatus> = { PENDING: 'queued', IN_PROGRESS: 'running', SUCCEEDED: 'succeeded', FAILED: 'failed', CANCELED: 'canceled' };

const TASKS = '/openapi/v1/image-to-3d';

/** The task in a Meshy answer. */
function readTask(body: unknown): ProviderTask {
  const t = record(body);
  if (!t || typeof t.id !== 'string' || t.id === '') throw new NotDocumented('a task needs a string "id"');
  const status = typeof t.status === 'string' ? STATUSES[t.status] : undefined;
  if (!status) throw new NotDocumented(`"status" must be one of ${Object.keys(STATUSES).join(', ')}`);
  const progress = typeof t.progress === 'number' && Number.isFinite(t.progress) ? Math.min(100, Math.max(0, t.progress)) : 0;
  const message = record(t.task_error)?.message;
  return { id: t.id, status, progress, vendorStatus: t.status as string, ...(typeof message === 'string' && message !== '' ? { error: message } : {}), raw: t };
}

/** The Meshy adapter. */
export function createMeshyProvider(options: HostedOptions): Provider {
  const http = new VendorHttp({
    ...options,
    vendor: 'meshy',
    auth: { authorization: `Bearer ${options.key}` },
    keyVariable: 'MESHY_API_KEY',
    errorText: (body) => {
      const message = record(body)?.message;
      return typeof message === 'string' ? message : undefined;
    },
  });
  const taskName = (id: string): string => `meshy task ${id}`;
  const get = (id: string): Promise<ProviderTask> => http.json('GET', `${TASKS}/${encodeURIComponent(id)}`, {}, (a) => readTask(a.body));
  return {
    name: 'meshy',
    label: `meshy (${http.baseUrl})`,
    baseUrl: http.baseUrl,
    taskName,
    model: async (id, opts) => hostedModel('meshy', id, opts, { image_url: '--image', ai_model: '--model' }),
    async create({ model, image, options: opts }) {
      const sendable = await sendableImage(image, ['jpeg', 'png']);
      const id = await http.json('POST', TASKS, { json: { ...opts, image_url: dataUri(sendable), ai_model: model.id } }, (a) => {
        const result = record(a.body)?.result;
        if (typeof result !== 'string' || result === '') throw new NotDocumented('the answer needs the task id in "result"');
        return { id: result };
      });
      return { id: id.id, status: 'queued', progress: 0, vendorStatus: 'PENDING' };
    },
    get,
    follow: (first, follow) => followTask(get, first, taskName(first.id), follow),
    async result(task) {
      const glb = record(record(task.raw)?.model_urls)?.glb;
      if (typeof glb !== 'string' || glb === '') throw new ResultRejected(`${taskName(task.id)} succeeded without a GLB: its model_urls has no "glb"`);
      const file = await http.download(glb, `the GLB of ${taskName(task.id)}`);
      return { ...file, format: 'glb' };
    },
    close: async () => {},
  };
}
