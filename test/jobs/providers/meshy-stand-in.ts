/**
 * A stand-in for Meshy's Image to 3D API, written from its public documentation (docs.meshy.ai/api/image-to-3d,
 * /api/errors, /api/rate-limits; see docs/providers.md): Bearer keys, `POST /openapi/v1/image-to-3d` answering
 * `{ result: <id> }`, the task object with `status`, `progress`, `task_error` and signed `model_urls`, and errors as
 * `{ message }`. A task is PENDING at its first poll, IN_PROGRESS at its second, and done at its third.
 */
import { randomUUID } from 'node:crypto';
import { isImageDataUri, jsonOf, pollCounter, rateLimited, standInServer, type Answer, type SeenRequest, type StandIn, type TaskScript } from './stand-in-server.ts';

const MODELS = ['meshy-5', 'meshy-6', 'latest'];

/** Starts the stand-in; `script` says what the next task does. */
export async function startMeshyStandIn(script: TaskScript): Promise<StandIn> {
  const key = `msy_${randomUUID().replace(/-/g, '')}`;
  const tasks = new Map<string, { script: TaskScript; createdAt: number; body: Record<string, unknown> }>();
  const poll = pollCounter();
  let storage = '';
  const stand: StandIn = { url: '', key, requests: [], script, created: [], canceled: [], close: async () => {} };
  const authorized = (request: SeenRequest): Answer | undefined =>
    request.headers.authorization === `Bearer ${key}` ? undefined : { status: 401, json: { message: 'Invalid API key.' } };

  const server = await standInServer(
    [
      [
        'POST',
        /^\/openapi\/v1\/image-to-3d$/,
        (request) => {
          const denied = authorized(request);
          if (denied) return denied;
          if (rateLimited(stand.script)) {
            const after = stand.script.rateLimit?.retryAfter;
            return { status: 429, headers: after ? { 'retry-after': after } : {}, json: { message: 'Too many requests, please slow down.' } };
          }
          const body = jsonOf(request) as Record<string, unknown> | undefined;
          if (!body || typeof body !== 'object') return { status: 400, json: { message: 'Invalid JSON body.' } };
          if (!isImageDataUri(body.image_url) && !/^https?:\/\//.test(String(body.image_url))) return { status: 400, json: { message: 'image_url must be a public URL or a data URI.' } };
          if (body.ai_model !== undefined && !MODELS.includes(String(body.ai_model))) return { status: 400, json: { message: `Invalid ai_model: ${String(body.ai_model)}.` } };
          if (body.target_polycount !== undefined && (typeof body.target_polycount !== 'number' || body.target_polycount < 100 || body.target_polycount > 300_000)) {
            return { status: 400, json: { message: 'target_polycount must be an integer from 100 to 300,000.' } };
          }
          const id = randomUUID();
          tasks.set(id, { script: { ...stand.script }, createdAt: Date.now(), body });
          stand.created.push(id);
          return { status: 202, json: { result: id } };
        },
      ],
      [
        'GET',
        /^\/openapi\/v1\/image-to-3d\/([^/]+)$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const task = tasks.get(id!);
          if (!task) return { status: 404, json: { message: 'Task not found.' } };
          // A hanging task stays pending until the test's script stops saying so.
          const n = task.script.hang && stand.script.hang ? 1 : poll(id!);
          const common = { id, type: 'image-to-3d', created_at: task.createdAt, started_at: n > 1 ? task.createdAt : 0, expires_at: 0, finished_at: 0, texture_urls: [], preceding_tasks: 0 };
          if (n === 1) return { status: 200, json: { ...common, status: 'PENDING', progress: 0, model_urls: {}, task_error: { message: '' } } };
          if (n === 2) return { status: 200, json: { ...common, status: 'IN_PROGRESS', progress: 45, model_urls: {}, task_error: { message: '' } } };
          if (task.script.fail) return { status: 200, json: { ...common, status: 'FAILED', progress: 0, model_urls: {}, task_error: { message: task.script.fail } } };
          const signed = (ext: string): string => `${storage}/assets/${id}/model.${ext}?Expires=1990000000&Signature=meshy-signature-${id}`;
          return {
            status: 200,
            json: {
              ...common,
              status: 'SUCCEEDED',
              progress: 100,
              finished_at: Date.now(),
              model_urls: { glb: signed('glb'), fbx: signed('fbx'), usdz: signed('usdz') },
              thumbnail_url: signed('png'),
              task_error: { message: '' },
            },
          };
        },
      ],
    ],
    () => ({ message: 'Not found.' }),
  );
  // Signed result URLs point at a storage host of their own, as Meshy's do.
  const files = await standInServer(
    [
      [
        'GET',
        /^\/assets\/([^/]+)\/model\.glb$/,
        (request, [id]) => {
          const task = tasks.get(id!);
          if (!task || request.query.get('Signature') !== `meshy-signature-${id}`) return { status: 403, json: { message: 'Signature does not match.' } };
          return { status: 200, headers: { 'content-type': 'model/gltf-binary' }, bytes: task.script.asset };
        },
      ],
    ],
    () => ({ message: 'Not found.' }),
    server.requests,
  );
  storage = files.url;
  stand.url = server.url;
  stand.requests = server.requests;
  stand.close = async () => {
    await server.close();
    await files.close();
  };
  return stand;
}
