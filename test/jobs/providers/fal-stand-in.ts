/**
 * A stand-in for fal's queue serving the image-to-3D endpoint `fal-ai/hunyuan3d/v2`, written from fal's public
 * documentation (fal.ai/docs: Asynchronous Inference, the Inference API and its queue operations, request errors,
 * the endpoint's llms.txt schema; see docs/providers.md): `Authorization: Key`, a submit to the full endpoint id answering
 * `request_id` and the status, response and cancel URLs, which use only the owner and app (`fal-ai/hunyuan3d`); status
 * IN_QUEUE and IN_PROGRESS (202) then COMPLETED (200); the result is the endpoint's output `{ model_mesh: File }` on a
 * storage host, or a failed request's error (`detail`, `error_type`, `X-Fal-Error-Type`); a validation error is 422
 * with `detail` as a list; `PUT .../cancel` answers 202 CANCELLATION_REQUESTED or 400 ALREADY_COMPLETED.
 */
import { randomUUID } from 'node:crypto';
import { isImageDataUri, jsonOf, pollCounter, rateLimited, standInServer, type Answer, type SeenRequest, type StandIn, type TaskScript } from './stand-in-server.ts';

/** Starts the stand-in; `script` says what the next request does. */
export async function startFalStandIn(script: TaskScript): Promise<StandIn> {
  const key = `${randomUUID()}:${randomUUID().replace(/-/g, '')}`;
  const requests = new Map<string, { script: TaskScript; input: Record<string, unknown>; canceled: boolean }>();
  const poll = pollCounter();
  let base = '';
  let storage = '';
  const stand: StandIn = { url: '', key, requests: [], script, created: [], canceled: [], close: async () => {} };
  const authorized = (request: SeenRequest): Answer | undefined => (request.headers.authorization === `Key ${key}` ? undefined : { status: 401, json: { detail: 'Unauthorized' } });
  const urls = (id: string): Record<string, string> => {
    const root = `${base}/fal-ai/hunyuan3d/requests/${id}`;
    return { response_url: root, status_url: `${root}/status`, cancel_url: `${root}/cancel` };
  };

  const server = await standInServer(
    [
      [
        'POST',
        /^\/fal-ai\/hunyuan3d\/v2$/,
        (request) => {
          const denied = authorized(request);
          if (denied) return denied;
          if (rateLimited(stand.script)) {
            const after = stand.script.rateLimit?.retryAfter;
            return { status: 429, headers: after ? { 'retry-after': after } : {}, json: { detail: 'Too many concurrent requests for this user.' } };
          }
          const input = jsonOf(request) as Record<string, unknown> | undefined;
          if (!input || typeof input !== 'object') return { status: 422, json: { detail: [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }] } };
          if (!isImageDataUri(input.input_image_url)) return { status: 422, json: { detail: [{ loc: ['body', 'input_image_url'], msg: 'field required', type: 'value_error.missing' }] } };
          const id = randomUUID();
          requests.set(id, { script: { ...stand.script }, input, canceled: false });
          stand.created.push(id);
          return { status: 200, json: { request_id: id, ...urls(id), queue_position: 0 } };
        },
      ],
      [
        'GET',
        /^\/fal-ai\/hunyuan3d\/requests\/([^/]+)\/status$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const r = requests.get(id!);
          if (!r) return { status: 404, json: { detail: 'Request not found' } };
          // A hanging request stays queued until the test's script stops saying so.
          const n = r.canceled || (r.script.hang && stand.script.hang) ? 1 : poll(id!);
          const response_url = urls(id!).response_url;
          if (n === 1) return { status: 202, json: { status: 'IN_QUEUE', queue_position: 0, response_url } };
          if (n === 2) return { status: 202, json: { status: 'IN_PROGRESS', response_url, logs: null } };
          return { status: 200, json: { status: 'COMPLETED', response_url, logs: null, metrics: { inference_time: 3.2 } } };
        },
      ],
      [
        'GET',
        /^\/fal-ai\/hunyuan3d\/requests\/([^/]+)$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const r = requests.get(id!);
          if (!r) return { status: 404, json: { detail: 'Request not found' } };
          if (r.script.fail) return { status: 500, headers: { 'x-fal-error-type': 'runner_server_error' }, json: { detail: r.script.fail, error_type: 'runner_server_error' } };
          const octree = r.input.octree_resolution;
          if (typeof octree === 'number' && octree > 1024) {
            return { status: 422, json: { detail: [{ loc: ['body', 'octree_resolution'], msg: 'ensure this value is less than or equal to 1024', type: 'value_error.number.not_le' }] } };
          }
          return {
            status: 200,
            json: {
              model_mesh: { url: `${storage}/files/${id}/white_mesh.glb`, content_type: 'model/gltf-binary', file_name: 'white_mesh.glb', file_size: r.script.asset.length },
              seed: 1234,
            },
          };
        },
      ],
      [
        'PUT',
        /^\/fal-ai\/hunyuan3d\/requests\/([^/]+)\/cancel$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const r = requests.get(id!);
          if (!r) return { status: 404, json: { status: 'NOT_FOUND' } };
          r.canceled = true;
          stand.canceled.push(id!);
          return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
        },
      ],
    ],
    () => ({ detail: 'Not Found' }),
  );
  const files = await standInServer(
    [
      [
        'GET',
        /^\/files\/([^/]+)\/white_mesh\.glb$/,
        (_request, [id]) => {
          const r = requests.get(id!);
          return r ? { status: 200, headers: { 'content-type': 'model/gltf-binary' }, bytes: r.script.asset } : { status: 404, json: { detail: 'Not Found' } };
        },
      ],
    ],
    () => ({ detail: 'Not Found' }),
    server.requests,
  );
  base = server.url;
  storage = files.url;
  stand.url = server.url;
  stand.requests = server.requests;
  stand.close = async () => {
    await server.close();
    await files.close();
  };
  return stand;
}
