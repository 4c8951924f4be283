/** Assembles the fastify app: error format, rate limits, multipart, the `/v1` API and the pages. */
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { BlobStore, JobStore, KeyStore } from '../store/types.ts';
import type { AddressPolicy } from './address-policy.ts';
import { ApiError, handleClientError, handleError } from './api-error.ts';
import { identify } from './authenticate.ts';
import type { JobRunner, RunnerLimits } from './job-runner.ts';
import { opsRoutes, type OpsDeps } from './ops-routes.ts';
import type { ConnectionCap } from './connection-cap.ts';
import type { EventStreamOptions } from './event-stream.ts';
import type { JobWatch } from './job-watch.ts';
import type { ConnectionLimits, RateLimits } from './options.ts';
import { pageRoutes } from './pages/pages.ts';
import { v1Routes } from './routes-v1.ts';
import type { UploadSlots } from './upload-slots.ts';

/** What the app is built from. */
export interface ServerDeps {
  jobs: JobStore;
  blobs: BlobStore;
  keys: KeyStore;
  runner: JobRunner;
  limits: RunnerLimits;
  rate: RateLimits;
  policy: AddressPolicy;
  openSignup: boolean;
  publicUrl: string | undefined;
  logger: boolean;
  connections: ConnectionLimits;
  /** The per-address cap, shared with the operations routes that report what it refused. */
  cap: ConnectionCap;
  uploads: UploadSlots;
  ops: OpsDeps;
  watch: JobWatch;
  events: EventStreamOptions;
}

/** JSON bodies are small: a model id and a URL. */
const JSON_BODY_LIMIT = 64 * 1024;

/** A fastify app with the error format, the 404 of the service and the connection limits. */
function baseApp(logger: boolean, connections: ConnectionLimits, cap: ConnectionCap): FastifyInstance {
  const { headersTimeoutMs, requestTimeoutMs, idleTimeoutMs, keepAliveTimeoutMs } = connections;
  const app = Fastify({
    logger,
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: true,
    connectionTimeout: idleTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    requestTimeout: requestTimeoutMs,
    http: { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: checkingInterval(connections) },
    clientErrorHandler: handleClientError,
  });
  cap.attach(app.server);
  app.decorateRequest('apiKey', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request) => {
    throw new ApiError(404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });
  return app;
}

/** Node checks the header and request time limits on a timer: a quarter of the shorter limit, so a socket outlives its limit by at most that. */
function checkingInterval({ headersTimeoutMs, requestTimeoutMs }: ConnectionLimits): number {
  const shortest = Math.min(...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0));
  return Number.isFinite(shortest) ? Math.min(30_000, Math.max(50, Math.floor(shortest / 4))) : 30_000;
}

/** The app of a worker process: only the operations routes. */
export async function buildOpsServer(ops: OpsDeps, logger: boolean, connections: ConnectionLimits, cap: ConnectionCap): Promise<FastifyInstance> {
  const app = baseApp(logger, connections, cap);
  await app.register((instance, _opts, done) => {
    opsRoutes(instance, ops).then(() => done(), done);
  });
  return app;
}

/** The fastify app, ready to listen. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = baseApp(deps.logger, deps.connections, deps.cap);
  // Who is asking is known before the limit counts: a live key is counted on its own, anything else (no key, a
  // malformed or wrong one) by address, so that floods without a valid key are limited too.
  app.addHook('onRequest', async (request) => {
    request.apiKey = await identify(deps.keys, request.headers.authorization);
  });
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: deps.rate.maxRequests,
    timeWindow: deps.rate.windowMs,
    keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'rate_limited', `too many requests: at most ${context.max} in ${context.after}; retry later`, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
  await app.register(multipart, { limits: { fileSize: deps.limits.maxImageBytes, files: 1 } });
  await app.register(
    (v1, _opts, done) => {
      v1Routes(v1, {
        jobs: deps.jobs,
        blobs: deps.blobs,
        keys: deps.keys,
        runner: deps.runner,
        limits: deps.limits,
        policy: deps.policy,
        publicUrl: deps.publicUrl?.replace(/\/+$/, ''),
        uploads: deps.uploads,
        maxCreates: deps.rate.maxCreates,
        windowMs: deps.rate.windowMs,
        watch: deps.watch,
        events: deps.events,
      }).then(() => done(), done);
    },
    { prefix: '/v1' },
  );
  await app.register((pages, _opts, done) => {
    pageRoutes(pages, { keys: deps.keys, openSignup: deps.openSignup, maxSignups: 10, windowMs: deps.rate.windowMs }).then(() => done(), done);
  });
  await app.register((instance, _opts, done) => {
    opsRoutes(instance, deps.ops).then(() => done(), done);
  });
  return app;
}
