/** Errors the API answers with: always JSON `{ "error": { "code", "message" } }`, never a stack trace. */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An error meant for the client, with its HTTP status and a stable code. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 406 | 413 | 415 | 422 | 429 | 500 | 503,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The body of an error response. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** Codes for the errors that fastify and its plugins raise themselves. */
const FRAMEWORK_ERRORS: Record<string, [ApiError['status'], string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'send application/json or multipart/form-data'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'the Content-Length header does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'the request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'the request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'the request body is not valid JSON'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type', 'the request is not multipart/form-data'],
  FST_REQ_FILE_TOO_LARGE: [413, 'image_too_large', 'the uploaded image is larger than the limit'],
  FST_FILES_LIMIT: [413, 'payload_too_large', 'send one image file only'],
  FST_PARTS_LIMIT: [413, 'payload_too_large', 'the multipart body has too many parts'],
  FST_FIELDS_LIMIT: [413, 'payload_too_large', 'the multipart body has too many fields'],
  FST_PROTO_VIOLATION: [400, 'invalid_request', 'a form field name is not allowed'],
  FST_MP_PREMATURE_CLOSE: [400, 'invalid_request', 'the multipart body ended early'],
};

/** Turns any thrown value into the status, headers and body to send. */
export function toErrorResponse(err: unknown): { status: number; headers: Record<string, string>; body: ErrorBody; internal: boolean } {
  if (err instanceof ApiError) return { status: err.status, headers: err.headers, body: { error: { code: err.code, message: err.message } }, internal: false };
  const e = err as Partial<FastifyError> & { statusCode?: number };
  const known = e.code ? FRAMEWORK_ERRORS[e.code] : undefined;
  if (known) return { status: known[0], headers: {}, body: { error: { code: known[1], message: known[2] } }, internal: false };
  if (e.code?.startsWith('FST_ERR_CTP_') && e.statusCode === 400) {
    return { status: 400, headers: {}, body: { error: { code: 'invalid_json', message: 'the request body is not valid JSON' } }, internal: false };
  }
  if (e.validation) return { status: 400, headers: {}, body: { error: { code: 'invalid_request', message: e.message ?? 'the request is not valid' } }, internal: false };
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const status = ([400, 401, 404, 413, 415, 422, 429] as const).find((s) => s === e.statusCode) ?? 400;
    return { status, headers: {}, body: { error: { code: 'invalid_request', message: e.message ?? 'the request is not valid' } }, internal: false };
  }
  return { status: 500, headers: {}, body: { error: { code: 'internal_error', message: 'the service failed to handle the request; the error is in its log' } }, internal: true };
}

/** The fastify error handler: logs internal errors, answers every error as JSON. */
export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, headers, body, internal } = toErrorResponse(err);
  if (internal) request.log.error({ err }, 'internal error');
  void reply.code(status).headers(headers).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

/** What Node's HTTP parser refuses before there is a request: a request too slow to arrive, headers too large, bytes that are not HTTP. */
const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'the request did not arrive within the time limit; send it without pauses'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'the request headers are larger than the limit'],
};

/** Fastify's client error handler: answers in the API's error format, then closes the connection. */
export function handleClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', 'invalid_request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}
