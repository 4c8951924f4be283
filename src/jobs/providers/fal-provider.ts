/**
 * fal's queue (fal.ai/docs: Asynchronous Inference, the Inference API and its queue operations, request errors,
 * fal CDN; see docs/providers.md): `POST https://queue.fal.run/<endpoint id>` with the model's input answers `request_id`,
 * `status_url`, `response_url` and `cancel_url`; the status is IN_QUEUE, IN_PROGRESS or COMPLETED; the result is
 * the endpoint's own document (3D endpoints name their GLB as a file `{ url, content_type, file_name }`, such as
 * `model_mesh`); a request that failed answers its result with an error status, `detail` and `error_type` (also the
 * `X-Fal-Error-Type` header). `PUT cancel_url` cancels. Status, result and cancel URLs use only the owner and app of
 * the endpoint id. The key goes as `Authorization: Key <FAL_KEY>`; the image as a data URI, which file inputs accept.
 */
import { JobApiError } from '../client/job-api-error.ts';
import { glbUrlOf } from './find-glb-url.ts';
import { followTask } from './follow-task.ts';
import { hostedModel, placeImage, record } from './hosted-model.ts';
import { ProviderSetupError, type Provider, type ProviderTask, type TaskStatus } from './provider.ts';
import { dataUri, sendableImage } from './task-image.ts';
import { NotDocumented, VendorHttp, type HostedOptions } from './vendor-http.ts';

const STATUSES: Record<string, TaskStatus> = { IN_QUEUE: 'queued', IN_PROGRESS: 'running', COMPLETED: 'succeeded' };

/** An endpoint id: `owner/app` and an optional path. */
const ENDPOINT = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/;

/** fal's error document as words: `detail` as a sentence, or the first validation errors with where they point. */
function errorText(body: unknown): string | undefined {
  const detail = record(body)?.detail;
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  return detail
    .slice(0, 3)
    .map((d) => {
      const e = record(d);
      const where = Array.isArray(e?.loc) ? e.loc.join('.') : '';
      return `${typeof e?.msg === 'string' ? e.msg : JSON.stringify(d)}${where ? ` (${where})` : ''}`;
    })
    .join('; ');
}

/** The fal adapter. `model()` names the endpoint, which every later call needs. */
export function createFalProvider(options: HostedOptions): Provider {
  const http = new VendorHttp({ ...options, vendor: 'fal', auth: { authorization: `Key ${options.key}` }, keyVariable: 'FAL_KEY', errorText });
  let endpoint = '';
  const taskName = (id: string): string => `fal request ${id}`;
  const requestUrl = (id: string, tail = ''): string => `/${endpoint.split('/').slice(0, 2).join('/')}/requests/${encodeURIComponent(id)}${tail}`;
  const readStatus = (id: string, body: unknown): ProviderTask => {
    const s = record(body);
    const status = typeof s?.status === 'string' ? STATUSES[s.status] : undefined;
    if (!s || !status) throw new NotDocumented(`"status" must be one of ${Object.keys(STATUSES).join(', ')}`);
    const failed = typeof s.error === 'string' && s.error !== '';
    return {
      id,
      status: failed ? 'failed' : status,
      progress: status === 'succeeded' ? 100 : 0,
      vendorStatus: s.status as string,
      ...(failed ? { error: `${s.error as string}${typeof s.error_type === 'string' ? ` (${s.error_type})` : ''}` } : {}),
    };
  };
  const get = (id: string): Promise<ProviderTask> =>
    // The queue answers 202 while the request waits or runs and 200 once it is done.
    http.json('GET', requestUrl(id, '/status'), {}, (a) => readStatus(id, a.body));
  return {
    name: 'fal',
    label: `fal (${http.baseUrl})`,
    baseUrl: http.baseUrl,
    taskName,
    async model(id, opts) {
      if (!ENDPOINT.test(id)) throw new ProviderSetupError(`--model "${id}" is not a fal endpoint id (owner/app[/path], such as fal-ai/hunyuan3d/v2)`);
      endpoint = id;
      return hostedModel('fal', id, opts, {});
    },
    async create({ model, image, options: opts }) {
      const uri = dataUri(await sendableImage(image, ['jpeg', 'png', 'webp']));
      const input = placeImage(opts, /hunyuan3d/i.test(model.id) ? 'input_image_url' : 'image_url', uri);
      const id = await http.json('POST', `/${model.id}`, { json: input }, (a) => {
        const requestId = record(a.body)?.request_id;
        if (typeof requestId !== 'string' || requestId === '') throw new NotDocumented('the answer needs a "request_id"');
        return requestId;
      });
      return { id, status: 'queued', progress: 0, vendorStatus: 'IN_QUEUE' };
    },
    get,
    follow: (first, follow) => followTask(get, first, taskName(first.id), follow),
    async result(task) {
      const failure = (res: Response): boolean => res.headers.has('x-fal-error-type') || res.status === 422;
      const answer = await http.json('GET', requestUrl(task.id), { accept: failure }, (a) => a);
      if (answer.status >= 400) {
        const kind = answer.headers.get('x-fal-error-type') ?? record(answer.body)?.error_type;
        throw new JobApiError('http', `${taskName(task.id)} failed: ${errorText(answer.body) ?? `status ${answer.status}`}${typeof kind === 'string' ? ` (${kind})` : ''}`, undefined, 'task_failed');
      }
      const url = glbUrlOf(answer.body, `the result of ${taskName(task.id)}`, 'an endpoint');
      const file = await http.download(url, `the GLB of ${taskName(task.id)}`);
      return { ...file, format: 'glb' };
    },
    async cancel(id) {
      const own = new VendorHttp({ ...options, vendor: 'fal', auth: { authorization: `Key ${options.key}` }, keyVariable: 'FAL_KEY', errorText, signal: AbortSignal.timeout(15_000), retries: 1 });
      // 400 ALREADY_COMPLETED: nothing is running any more.
      await own.json('PUT', requestUrl(id, '/cancel'), { accept: (res) => res.status === 400 }, () => undefined);
    },
    close: async () => {},
  };
}
