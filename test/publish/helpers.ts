/** Helpers of the publish tests: git repositories in temp folders, a job service, a misbehaving fake API, snapshots of the registry. */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { MODEL_CATALOG, startJobService, type JobService, type JobServiceOptions } from '../../src/jobs/service/index.ts';
import { submit, type SubmitIo, type SubmitOptions, type SubmitResult } from '../../src/publish/submit.ts';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';

const run = promisify(execFile);

/** The registry URL the tests publish under: the sample site's, so that a site built here reuses its page renderer (one per URL). */
export const REGISTRY_URL = DEFAULT_REGISTRY_URL;

/** Git settings that work on any machine, whatever its global configuration. */
export const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };

/** A git repository in a temp folder, with one commit and no registry yet. */
export interface TestRepo {
  dir: string;
  /** Where publish state files go (outside the repository). */
  stateDir: string;
  git(...args: string[]): Promise<string>;
  /** Absolute path of a file in the repository. */
  path(...parts: string[]): string;
  remove(): Promise<void>;
}

/** Creates the repository: `git init` on `main`, a user in its config, a README committed. */
export async function createRepo(): Promise<TestRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'aso-publish-repo-'));
  const stateDir = await mkdtemp(join(tmpdir(), 'aso-publish-state-'));
  const git = async (...args: string[]): Promise<string> => (await run('git', args, { cwd: dir, env: GIT_ENV })).stdout;
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Publish Test');
  await git('config', 'user.email', 'publish@registry.test');
  await git('config', 'commit.gpgsign', 'false');
  await git('config', 'core.autocrlf', 'false');
  await writeFile(join(dir, 'README.md'), '# test registry\n');
  await git('add', 'README.md');
  await git('commit', '-q', '-m', 'start');
  return {
    dir,
    stateDir,
    git,
    path: (...parts) => join(dir, ...parts),
    remove: async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** A PNG with a light disc on a coloured background (a shape every model can work with). */
export async function photoPng(width = 48, height = 36, background = '#c83232'): Promise<Uint8Array> {
  const r = Math.min(width, height) / 3;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#f0f0f0"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A JPEG carrying EXIF metadata (a copyright owner and a camera), to see it stripped. */
export async function jpegWithExif(marker: string): Promise<Uint8Array> {
  const png = await photoPng(40, 30, '#3060c0');
  return new Uint8Array(await sharp(png).jpeg().withExif({ IFD0: { Copyright: marker, Make: `${marker}-camera` } }).toBuffer());
}

/** A PNG of one flat colour: the silhouette model finds no foreground in it and fails the job. */
export async function flatPng(): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 24, height: 24, channels: 3, background: '#808080' } }).png().toBuffer());
}

/** A job service on a free loopback port over a fresh data folder (or `dataDir`), with one key. */
export async function startService(options: Partial<JobServiceOptions> = {}, dataDir?: string): Promise<{ service: JobService; key: string; dataDir: string; close(): Promise<void> }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'aso-publish-jobs-')));
  const service = await startJobService({ port: 0, concurrency: 1, ...options, dataDir: dir });
  const key = await service.createKey('publish-test');
  return {
    service,
    key,
    dataDir: dir,
    close: async () => {
      await service.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An io that records what a publish prints. */
export function recordIo(onLine?: (line: string) => void): SubmitIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (line) => {
      lines.push(line);
      onLine?.(line);
    },
    err: (line) => void errors.push(line),
  };
}

/** Options of a publish in `repo` against `api` with `key`; quick retries and polls. */
function publishOptions(repo: TestRepo, api: { url: string; key: string } | null, more: Partial<SubmitOptions> = {}): SubmitOptions {
  return {
    cwd: repo.dir,
    env: { REGISTRY_URL, ...(api ? { ASO_API_KEY: api.key } : {}) },
    stateDir: repo.stateDir,
    ...(api ? { api: api.url } : {}),
    retries: 2,
    backoff: { initialMs: 20, maxMs: 200 },
    timeoutMs: 60_000,
    ...more,
  };
}

/** Runs a publish and returns its result. */
export function publish(repo: TestRepo, api: { url: string; key: string } | null, more: Partial<SubmitOptions> = {}, io = recordIo()): Promise<SubmitResult> {
  return submit(publishOptions(repo, api, more), io);
}

/** Everything a failed publish must leave as it was: the registry files and their bytes, HEAD, the branch, the branches, the status. */
export async function snapshot(repo: TestRepo): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        files.push(`${relative(repo.dir, path).split(sep).join('/')}/`);
        await walk(path);
      } else files.push(`${relative(repo.dir, path).split(sep).join('/')} ${createHash('sha256').update(await readFile(path)).digest('hex')}`);
    }
  };
  await walk(repo.path('registry'));
  const top = (await readdir(repo.dir)).filter((n) => n !== '.git' && n !== 'node_modules').sort();
  return [
    ...files.sort(),
    `top: ${top.join(' ')}`,
    `HEAD ${(await repo.git('rev-parse', 'HEAD')).trim()}`,
    `branch ${(await repo.git('branch', '--show-current')).trim()}`,
    `branches ${(await repo.git('branch', '--list', '--format=%(refname:short)')).trim().split('\n').join(' ')}`,
    `status ${(await repo.git('status', '--porcelain')).trim()}`,
  ].join('\n');
}

/** The catalog as `GET /v1/models` shows it. */
export function catalogJson(): unknown {
  return {
    object: 'list',
    data: MODEL_CATALOG.map((m) => ({
      id: m.id,
      object: 'model',
      name: m.name,
      version: m.version,
      provider: m.provider,
      output: { type: m.type, format: m.format, media_type: m.mediaType },
      parameters: m.parameters,
    })),
  };
}

/** A route of the fake API: the request, the reply, how many times the route was hit (from 1), and the job document in a status. */
type Handler = (request: FastifyRequest, reply: FastifyReply, hit: number, job: (status: string) => Record<string, unknown>) => unknown;

/** What the fake API does for each route; the default is a well-behaved API with one job whose asset is `asset`. */
export interface FakeRoutes {
  models?: Handler;
  create?: Handler;
  get?: Handler;
  asset?: Handler;
}

/** A fake job API on loopback that answers as told, counting hits and keeping the request headers. */
export async function fakeApi(asset: Uint8Array, routes: FakeRoutes = {}): Promise<{ url: string; key: string; hits: Record<string, number>; headers: Array<Record<string, unknown>>; jobId: string; close(): Promise<void> }> {
  const app = Fastify();
  app.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, null));
  });
  const jobId = randomUUID();
  const hits: Record<string, number> = { models: 0, create: 0, get: 0, asset: 0 };
  const headers: Array<Record<string, unknown>> = [];
  const sha256 = createHash('sha256').update(asset).digest('hex');
  let base = '';
  const job = (status: string): Record<string, unknown> => ({
    id: jobId,
    object: 'job',
    status,
    model: 'relief',
    model_version: '1.0.0',
    progress: status === 'succeeded' ? 100 : 0,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    download_url: status === 'succeeded' ? `${base}/v1/jobs/${jobId}/asset` : null,
    asset: status === 'succeeded' ? { format: 'glb', media_type: 'model/gltf-binary', byte_length: asset.length, sha256 } : null,
    error: null,
  });
  const route = (name: keyof FakeRoutes, fallback: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const hit = ++hits[name]!;
    headers.push({ route: name, ...request.headers });
    return (routes[name] ?? fallback)(request, reply, hit, job);
  };
  app.get('/v1/models', route('models', () => catalogJson()));
  app.post('/v1/jobs', route('create', (_q, reply) => reply.code(202).send(job('queued'))));
  app.get('/v1/jobs/:id', route('get', () => job('succeeded')));
  app.get(
    '/v1/jobs/:id/asset',
    route('asset', (_q, reply) => reply.header('content-type', 'model/gltf-binary').header('x-content-sha256', sha256).send(Buffer.from(asset))),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url: base, key: 'fake-key', hits, headers, jobId, close: () => app.close() };
}
