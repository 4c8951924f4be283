/** Reads the body of `POST /v1/jobs`: JSON `{ model, image_url, webhook_url? }` or multipart with `model`, an `image` file and `webhook_url`. */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error.ts';
import { stageUpload, type StagedUpload } from './stage-upload.ts';

/** What a create request asks for; an uploaded image waits in a temporary file that the caller hands on or removes. */
export type CreateRequest = (
  | { model: unknown; imageUrl: string; upload?: undefined; filename?: undefined }
  | { model: unknown; upload: StagedUpload; filename: string | null; imageUrl?: undefined }
) & {
  /** Where the job's status changes are pushed (checked as a URL later, with the address rules). */
  webhookUrl?: string;
};

/** Where an uploaded image goes while the request is read, and how large it may be. */
export interface UploadTarget {
  maxImageBytes: number;
  /** A new path for the temporary file (on the blob store's disk). */
  temporaryPath(): string;
}

const JSON_FIELDS = new Set(['model', 'image_url', 'webhook_url']);

/** The longest URL taken in `image_url` or `webhook_url`. */
const MAX_URL_LENGTH = 4096;

/** A `webhook_url` field as given, or undefined when absent; a 400 naming the field when it is not a usable string. */
function webhookUrlField(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) throw new ApiError(400, 'invalid_request', 'field "webhook_url" must be a non-empty string');
  if (value.length > MAX_URL_LENGTH) throw new ApiError(400, 'invalid_request', `field "webhook_url" is longer than ${MAX_URL_LENGTH} characters`);
  return value;
}

/** The parsed request; throws `ApiError` 400 naming the field that is wrong. */
export async function readCreateRequest(request: FastifyRequest, target: UploadTarget): Promise<CreateRequest> {
  if (request.isMultipart()) return readMultipart(request, target);
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'invalid_request', 'the body must be a JSON object with "model" and "image_url"');
  }
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!JSON_FIELDS.has(key)) throw new ApiError(400, 'invalid_request', `unknown field "${key}"; a job takes "model", "image_url" and "webhook_url"`);
  }
  if (record.image_url === undefined) throw new ApiError(400, 'invalid_request', 'field "image_url" is required (or upload the image as multipart/form-data)');
  if (typeof record.image_url !== 'string' || record.image_url.length === 0) throw new ApiError(400, 'invalid_request', 'field "image_url" must be a non-empty string');
  if (record.image_url.length > MAX_URL_LENGTH) throw new ApiError(400, 'invalid_request', `field "image_url" is longer than ${MAX_URL_LENGTH} characters`);
  const webhookUrl = webhookUrlField(record.webhook_url);
  return { model: record.model, imageUrl: record.image_url, ...(webhookUrl === undefined ? {} : { webhookUrl }) };
}

/**
 * Reads a multipart body. The parser's own errors (no boundary, a cut or garbled body) become 400 `invalid_request`;
 * errors that have a status of their own (a limit: 413) keep it.
 */
async function readMultipart(request: FastifyRequest, target: UploadTarget): Promise<CreateRequest> {
  try {
    return await readParts(request, target);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const e = error as { code?: string; statusCode?: number; message?: string };
    if (e.code?.startsWith('FST_') && e.statusCode !== undefined && e.statusCode !== 500) throw error;
    throw new ApiError(400, 'invalid_request', `the multipart/form-data body is malformed (${e.message ?? String(error)}); send the fields "model" and "image"`);
  }
}

async function readParts(request: FastifyRequest, target: UploadTarget): Promise<CreateRequest> {
  const { maxImageBytes } = target;
  let model: unknown;
  let upload: StagedUpload | undefined;
  let filename: string | null = null;
  let webhookUrl: string | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxImageBytes, files: 1, fields: 4, parts: 5 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          part.file.resume();
          throw new ApiError(400, 'invalid_request', `unexpected file field "${part.fieldname}"; send the image in the field "image"`);
        }
        upload = await stageUpload(part.file, target.temporaryPath(), maxImageBytes);
        // The parser stops a file at the limit and marks it cut rather than failing the stream.
        if (part.file.truncated) throw new ApiError(413, 'image_too_large', `the uploaded "image" is larger than the limit of ${maxImageBytes} bytes`);
        filename = part.filename || null;
      } else if (part.fieldname === 'model') {
        model = part.value;
      } else if (part.fieldname === 'webhook_url') {
        webhookUrl = webhookUrlField(part.value);
      } else if (part.fieldname === 'image_url') {
        throw new ApiError(400, 'invalid_request', 'send either an "image" file or a JSON "image_url", not both');
      } else {
        throw new ApiError(400, 'invalid_request', `unknown field "${part.fieldname}"; a multipart job takes "model", "image" and "webhook_url"`);
      }
    }
    if (!upload) throw new ApiError(400, 'invalid_request', 'field "image" (a file) is required in a multipart request');
    if (upload.byteLength === 0) throw new ApiError(400, 'invalid_request', 'the uploaded "image" is empty');
  } catch (err) {
    if (upload) await rm(upload.path, { force: true });
    throw err;
  }
  return { model, upload, filename, ...(webhookUrl === undefined ? {} : { webhookUrl }) };
}

/** A digest of what the request asks for, to tell a repeated request from another one under the same `Idempotency-Key`. */
export function requestHash(model: string, body: CreateRequest): string {
  const image = body.upload ? { model, image_sha256: body.upload.sha256 } : { model, image_url: body.imageUrl };
  // Without a webhook the digest is what it was before webhooks, so that keys stored then still match.
  const source = body.webhookUrl === undefined ? image : { ...image, webhook_url: body.webhookUrl };
  return sha256Hex(new TextEncoder().encode(JSON.stringify(source)));
}

/** Lowercase hex SHA-256. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The `Idempotency-Key` header, checked: 1 to 255 visible ASCII characters, or undefined when absent. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] ?? '' : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) throw new ApiError(400, 'invalid_idempotency_key', 'the Idempotency-Key header must be 1 to 255 visible ASCII characters');
  return value;
}
