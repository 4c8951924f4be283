/**
 * A stand-in for Replicate's HTTP API, written from its public documentation (replicate.com/docs: HTTP API reference
 * for predictions and files, input files, rate limits; see docs/providers.md): Bearer tokens; predictions created through
 * `POST /v1/models/{owner}/{name}/predictions` or `POST /v1/predictions` with a `version`, answering 201 with the
 * prediction (`id`, `version`, `status`, `logs`, `output`, `error`, `urls`); `GET /v1/predictions/{id}`;
 * `POST /v1/predictions/{id}/cancel`; `POST /v1/files` (multipart `content`) answering `urls.get`; 429 as
 * `{"detail": "Request was throttled. Your rate limit resets in ~Ns."}`; errors as `{ title, detail, status }`.
 * The model it serves, `firtoz/trellis`, takes `images` and outputs `{ model_file, color_video }` on a delivery host.
 */
import { randomBytes } from 'node:crypto';
import { formOf, jsonOf, pollCounter, rateLimited, standInServer, type Answer, type SeenRequest, type StandIn, type TaskScript } from './stand-in-server.ts';

/** The version id the model answers with. */
export const TRELLIS_VERSION = 'e8f6c45206993f297372f5436b90350817bd9b4a0d52d2a76df50c1c8afa2b3c';

/** A prediction id as Replicate writes them (lowercase base32). */
function predictionId(): string {
  return [...randomBytes(26)].map((b) => 'abcdefghijklmnopqrstuvwxyz234567'[b % 32]).join('');
}

function problem(status: number, title: string, detail: string): Answer {
  return { status, headers: { 'content-type': 'application/problem+json' }, json: { title, detail, status } };
}

/** Starts the stand-in; `script` says what the next prediction does. */
export async function startReplicateStandIn(script: TaskScript): Promise<StandIn & { files: Map<string, Uint8Array> }> {
  const key = `r8_${randomBytes(18).toString('hex')}`;
  const predictions = new Map<string, { script: TaskScript; input: Record<string, unknown>; canceled: boolean; created: string }>();
  const files = new Map<string, Uint8Array>();
  const poll = pollCounter();
  let base = '';
  let delivery = '';
  const stand: StandIn & { files: Map<string, Uint8Array> } = { url: '', key, requests: [], script, created: [], canceled: [], files, close: async () => {} };
  const authorized = (request: SeenRequest): Answer | undefined =>
    request.headers.authorization === `Bearer ${key}` ? undefined : problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');

  const document = (id: string): Record<string, unknown> => {
    const p = predictions.get(id)!;
    const n = p.canceled || (p.script.hang && stand.script.hang) ? 1 : poll(id);
    const status = p.canceled ? 'canceled' : n === 1 ? 'starting' : n === 2 ? 'processing' : p.script.fail ? 'failed' : 'succeeded';
    return {
      id,
      model: 'firtoz/trellis',
      version: TRELLIS_VERSION,
      input: p.input,
      logs: status === 'processing' ? 'Sampling:  40%|####      | 10/25\n' : status === 'succeeded' ? 'Sampling: 100%|##########| 25/25\nDone\n' : '',
      // The model writes a GLB only when asked to (`generate_model`, on by default).
      output:
        status === 'succeeded'
          ? { ...(p.input.generate_model !== false ? { model_file: `${delivery}/xezq/${id}/output.glb` } : {}), color_video: `${delivery}/xezq/${id}/color.mp4` }
          : null,
      error: status === 'failed' ? p.script.fail : null,
      status,
      created_at: p.created,
      urls: { get: `${base}/v1/predictions/${id}`, cancel: `${base}/v1/predictions/${id}/cancel`, web: `https://replicate.com/p/${id}` },
    };
  };

  const create = (request: SeenRequest, version: string | undefined): Answer => {
    const denied = authorized(request);
    if (denied) return denied;
    if (rateLimited(stand.script)) {
      const after = stand.script.rateLimit?.retryAfter ?? '30';
      return { status: 429, json: { detail: `Request was throttled. Your rate limit resets in ~${after}s.` } };
    }
    const body = jsonOf(request) as Record<string, unknown> | undefined;
    const input = body?.input as Record<string, unknown> | undefined;
    if (!input || typeof input !== 'object') return problem(422, 'Input validation failed', 'input is required');
    if (version !== undefined && body!.version !== version) return problem(422, 'Invalid version or not permitted', 'The specified version does not exist (or perhaps you don\'t have permission to use it?)');
    const images = input.images;
    const ok = (v: unknown): boolean => typeof v === 'string' && (/^data:image\/(png|jpeg|webp);base64,/.test(v) || v.startsWith(`${base}/v1/files/`));
    if (!Array.isArray(images) || images.length === 0 || !images.every(ok)) return problem(422, 'Input validation failed', '- images: Expected: array of files, given: ' + typeof images);
    const id = predictionId();
    predictions.set(id, { script: { ...stand.script }, input, canceled: false, created: new Date().toISOString() });
    stand.created.push(id);
    return { status: 201, json: document(id) };
  };

  const server = await standInServer(
    [
      ['POST', /^\/v1\/models\/firtoz\/trellis\/predictions$/, (request) => create(request, undefined)],
      ['POST', /^\/v1\/predictions$/, (request) => create(request, TRELLIS_VERSION)],
      [
        'GET',
        /^\/v1\/predictions\/([^/]+)$/,
        (request, [id]) => authorized(request) ?? (predictions.has(id!) ? { status: 200, json: document(id!) } : problem(404, 'Not found', 'The requested resource could not be found.')),
      ],
      [
        'POST',
        /^\/v1\/predictions\/([^/]+)\/cancel$/,
        (request, [id]) => {
          const denied = authorized(request);
          if (denied) return denied;
          const p = predictions.get(id!);
          if (!p) return problem(404, 'Not found', 'The requested resource could not be found.');
          p.canceled = true;
          stand.canceled.push(id!);
          return { status: 200, json: document(id!) };
        },
      ],
      [
        'POST',
        /^\/v1\/files$/,
        async (request) => {
          const denied = authorized(request);
          if (denied) return denied;
          const content = (await formOf(request).catch(() => undefined))?.get('content');
          if (!(content instanceof File)) return problem(400, 'Bad request', 'content is required');
          const id = randomBytes(12).toString('hex');
          files.set(id, new Uint8Array(await content.arrayBuffer()));
          return { status: 201, json: { id, name: content.name, content_type: content.type, size: content.size, urls: { get: `${base}/v1/files/${id}` } } };
        },
      ],
    ],
    () => ({ title: 'Not found', detail: 'The requested resource could not be found.', status: 404 }),
  );
  const deliveryHost = await standInServer(
    [
      [
        'GET',
        /^\/xezq\/([^/]+)\/output\.glb$/,
        (_request, [id]) => {
          const p = predictions.get(id!);
          return p ? { status: 200, headers: { 'content-type': 'model/gltf-binary' }, bytes: p.script.asset } : { status: 404, json: { detail: 'Not found' } };
        },
      ],
    ],
    () => ({ detail: 'Not found' }),
    server.requests,
  );
  base = server.url;
  delivery = deliveryHost.url;
  stand.url = server.url;
  stand.requests = server.requests;
  stand.close = async () => {
    await server.close();
    await deliveryHost.close();
  };
  return stand;
}
