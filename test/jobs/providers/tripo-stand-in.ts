/**
 * A stand-in for Tripo's API v2, written from its public documentation (docs.tripo3d.ai: upload directly,
 * image_to_model, task query, errors and error handling, support FAQ; see docs/providers.md): Bearer keys, a multipart
 * upload answering `data.image_token`, `POST /v2/openapi/task` with `type`, `file { type, file_token }` and
 * `model_version` answering `data.task_id`, the task with `status`, `progress`, `output` (signed URLs on a storage
 * host) and `error_code`, every answer wrapped as `{ code, data }`, errors as `{ code, message, suggestion }` (429 is
 * code 2000). A task is queued at its first poll, running at its second, and done at its third.
 */
import { randomUUID } from 'node:crypto';
import { formOf, jsonOf, pollCounter, rateLimited, standInServer, type Answer, type SeenRequest, type StandIn, type TaskScript } from './stand-in-server.ts';

const FILE_TYPES = ['jpg', 'jpeg', 'png', 'webp'];

/** An error as Tripo documents them. */
function tripoError(status: number, code: number, message: string, suggestion: string, headers: Record<string, string> = {}): Answer {
  return { status, headers, json: { code, message, suggestion } };
}

/** Starts the stand-in; `script` says what the next task does. */
export async function startTripoStandIn(script: TaskScript): Promise<StandIn> {
  const key = `tsk_${randomUUID().replace(/-/g, '')}`;
  const uploads = new Set<string>();
  const tasks = new Map<string, { script: TaskScript; body: Record<string, unknown>; createdAt: number }>();
  const poll = pollCounter();
  let storage = '';
  const stand: StandIn = { url: '', key, requests: [], script, created: [], canceled: [], close: async () => {} };
  const authorized = (request: SeenRequest): Answer | undefined =>
    request.headers.authorization === `Bearer ${key}` ? undefined : tripoError(401, 1002, 'Authentication failed', 'Check if your credentials is valid, and ensure you set it correctly');

  const server = await standInServer(
    [
      [
        'POST',
        /^\/v2\/openapi\/upload$/,
        async (request) => {
          const denied = authorized(request);
          if (denied) return denied;
          const file = (await formOf(request).catch(() => undefined))?.get('file');
          if (!(file instanceof File) || file.size === 0) return tripoError(400, 1003, 'The request body is malformed', 'Refer to the API documentation for request schema');
          const token = randomUUID();
          uploads.add(token);
          return { status: 200, json: { code: 0, data: { image_token: token } } };
        },
      ],
      [
        'POST',
        /^\/v2\/openapi\/task$/,
        (request) => {
          const denied = authorized(request);
          if (denied) return denied;
          if (rateLimited(stand.script)) {
            const after = stand.script.rateLimit?.retryAfter;
            return tripoError(429, 2000, 'You have exceeded the limit of generation', 'Please retry later, or contact us for a higher limit', after ? { 'retry-after': after } : {});
          }
          const body = jsonOf(request) as Record<string, unknown> | undefined;
          const file = body?.file as Record<string, unknown> | undefined;
          if (!body || body.type !== 'image_to_model' || !file || !FILE_TYPES.includes(String(file.type)) || !uploads.has(String(file.file_token))) {
            return tripoError(400, 1004, 'One or more of your parameter is invalid', 'Refer to the API documentation for parameter requirements');
          }
          if (body.face_limit !== undefined && (typeof body.face_limit !== 'number' || body.face_limit < 1)) {
            return tripoError(400, 1004, 'One or more of your parameter is invalid', 'face_limit must be a positive integer');
          }
          const id = randomUUID();
          tasks.set(id, { script: { ...stand.script }, body, createdAt: Math.floor(Date.now() / 1000) });
          stand.created.push(id);
          return { status: 200, json: { code: 0, data: { task_id: id } } };
        },
      ],
      [
        'GET',
        /^\/v2\/openapi\/task\/([^/]+)$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const task = tasks.get(id!);
          if (!task) return tripoError(404, 2001, 'Task not found', 'Check the task id');
          const n = task.script.hang && stand.script.hang ? 1 : poll(id!);
          const input = { model_version: task.body.model_version, texture: task.body.texture, pbr: task.body.pbr };
          const common = { task_id: id, type: 'image_to_model', input, create_time: task.createdAt };
          const data =
            n === 1
              ? { ...common, status: 'queued', output: {}, progress: 0, queuing_num: 1, running_left_time: -1 }
              : n === 2
                ? { ...common, status: 'running', output: {}, progress: 60, queuing_num: -1, running_left_time: 12 }
                : task.script.fail
                  ? { ...common, status: 'failed', output: {}, progress: 100, error_code: 1001, error_msg: task.script.fail, queuing_num: -1, running_left_time: -1 }
                  : {
                      ...common,
                      status: 'success',
                      progress: 100,
                      output: {
                        pbr_model: `${storage}/tripo-data/${id}/pbr.glb?auth_key=tripo-signature-${id}`,
                        rendered_image: `${storage}/tripo-data/${id}/render.webp?auth_key=tripo-signature-${id}`,
                      },
                      queuing_num: -1,
                      running_left_time: -1,
                    };
          return { status: 200, json: { code: 0, data } };
        },
      ],
    ],
    () => ({ code: 1003, message: 'Not found', suggestion: 'Refer to the API documentation' }),
  );
  // Result URLs are signed URLs on a storage host of their own.
  const files = await standInServer(
    [
      [
        'GET',
        /^\/tripo-data\/([^/]+)\/pbr\.glb$/,
        (request, [id]) => {
          const task = tasks.get(id!);
          if (!task || request.query.get('auth_key') !== `tripo-signature-${id}`) return { status: 403, json: { message: 'Forbidden' } };
          return { status: 200, headers: { 'content-type': 'model/gltf-binary' }, bytes: task.script.asset };
        },
      ],
    ],
    () => ({ message: 'Not found' }),
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
