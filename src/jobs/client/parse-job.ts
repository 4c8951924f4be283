/** The job API's documents as the client reads them, checked field by field so that garbage is caught at the door. */

/** The states of a job. */
const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;

/** A job status. */
type ApiJobStatus = (typeof JOB_STATUSES)[number];

/** A job (DESIGN §7). */
export interface ApiJob {
  id: string;
  status: ApiJobStatus;
  model: string;
  model_version: string | null;
  progress: number;
  created_at: string | null;
  updated_at: string | null;
  download_url: string | null;
  asset: { format: string; media_type: string; byte_length: number; sha256: string } | null;
  error: { code: string; message: string } | null;
}

/** A catalog entry of `GET /v1/models`. */
export interface ApiModel {
  id: string;
  name: string;
  version: string;
  provider: string;
  output: { type: string; format: string; media_type: string };
  parameters: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(o: Fields, key: string): string | null | undefined {
  const v = o[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : undefined;
}

/** The job in `value`, or why it is not one. */
export function parseJob(value: unknown): ApiJob | string {
  if (!isObject(value)) return 'a job must be a JSON object';
  if (typeof value.id !== 'string' || value.id === '') return 'field "id" must be a non-empty string';
  if (!/^[A-Za-z0-9._:-]{1,200}$/.test(value.id)) return `field "id" ("${value.id.slice(0, 40)}") has characters a job id cannot have`;
  if (typeof value.status !== 'string' || !(JOB_STATUSES as readonly string[]).includes(value.status)) {
    return `field "status" must be one of ${JOB_STATUSES.join(', ')}`;
  }
  if (typeof value.model !== 'string') return 'field "model" must be a string';
  const progress = value.progress ?? 0;
  if (typeof progress !== 'number' || !Number.isFinite(progress)) return 'field "progress" must be a number';
  const strings: Record<string, string | null> = {};
  for (const key of ['model_version', 'created_at', 'updated_at', 'download_url']) {
    const v = optionalString(value, key);
    if (v === undefined) return `field "${key}" must be a string or null`;
    strings[key] = v;
  }
  let asset: ApiJob['asset'] = null;
  if (value.asset !== undefined && value.asset !== null) {
    const a = value.asset;
    if (!isObject(a) || typeof a.format !== 'string' || typeof a.media_type !== 'string' || !Number.isSafeInteger(a.byte_length) || typeof a.sha256 !== 'string') {
      return 'field "asset" must be { format, media_type, byte_length, sha256 } or null';
    }
    if (!/^[0-9a-f]{64}$/.test(a.sha256)) return 'field "asset.sha256" must be 64 lowercase hexadecimal digits';
    asset = { format: a.format, media_type: a.media_type, byte_length: a.byte_length as number, sha256: a.sha256 };
  }
  let error: ApiJob['error'] = null;
  if (value.error !== undefined && value.error !== null) {
    const e = value.error;
    if (!isObject(e) || typeof e.message !== 'string') return 'field "error" must be { code, message } or null';
    error = { code: typeof e.code === 'string' ? e.code : 'unknown', message: e.message };
  }
  const status = value.status as ApiJobStatus;
  if (status === 'succeeded' && !strings.download_url) return 'a succeeded job must carry a "download_url"';
  return {
    id: value.id,
    status,
    model: value.model,
    model_version: strings.model_version ?? null,
    progress: Math.min(100, Math.max(0, progress)),
    created_at: strings.created_at ?? null,
    updated_at: strings.updated_at ?? null,
    download_url: strings.download_url ?? null,
    asset,
    error,
  };
}

/** The models of a `GET /v1/models` answer (`{ data: [...] }`), or why it is not one. */
export function parseModelList(value: unknown): ApiModel[] | string {
  if (!isObject(value) || !Array.isArray(value.data)) return 'the model list must be an object with a "data" array';
  const models: ApiModel[] = [];
  for (const [i, m] of value.data.entries()) {
    if (!isObject(m) || typeof m.id !== 'string' || m.id === '') return `data[${i}].id must be a non-empty string`;
    const out = m.output;
    if (!isObject(out) || typeof out.type !== 'string' || typeof out.format !== 'string' || typeof out.media_type !== 'string') {
      return `data[${i}].output must be { type, format, media_type }`;
    }
    models.push({
      id: m.id,
      name: typeof m.name === 'string' ? m.name : m.id,
      version: typeof m.version === 'string' ? m.version : 'unknown',
      provider: typeof m.provider === 'string' ? m.provider : 'unknown',
      output: { type: out.type, format: out.format, media_type: out.media_type },
      parameters: isObject(m.parameters) ? m.parameters : {},
    });
  }
  return models;
}
