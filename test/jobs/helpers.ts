/** Shared helpers of the job service tests: temporary data folders, test images, a running service, polling. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { startJobService, type JobDocument, type JobService, type JobServiceOptions } from '../../src/jobs/service/index.ts';
import { freshDatabase } from '../support/postgres.ts';

/** The backends every behaviour test of the job service runs against: one suite, parametrised. */
export const BACKENDS = ['files', 'postgres'] as const;

/** A backend of the job service. */
export type BackendKind = (typeof BACKENDS)[number];

/** Where a test service keeps its data: a temporary folder, and a fresh database for Postgres. */
export interface TestData {
  backend: BackendKind;
  dataDir: string;
  databaseUrl?: string;
  /** Removes the folder (the database goes with the test server). */
  remove(): Promise<void>;
}

/** New, empty data for `backend`. */
export async function testData(backend: BackendKind): Promise<TestData> {
  const dir = await tempDir();
  return { backend, dataDir: dir.path, databaseUrl: backend === 'postgres' ? await freshDatabase() : undefined, remove: dir.remove };
}

/** A temporary folder and a way to remove it. */
export async function tempDir(prefix = 'aso-jobs-test-'): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A PNG of a red disc with a white hole on a white background (64 x 48 unless told). */
export async function discPng(width = 64, height = 48): Promise<Uint8Array> {
  const r = Math.min(width, height) / 3;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#ffffff"/><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#cc3333"/><circle cx="${width / 2}" cy="${height / 2}" r="${r / 3}" fill="#ffffff"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** The disc PNG grown to exactly `totalBytes` by a private ancillary chunk before its end, which decoders skip: a large upload that decodes fast. */
export async function paddedPng(totalBytes: number): Promise<Uint8Array> {
  const png = await discPng();
  const dataLength = totalBytes - png.length - 12;
  if (dataLength < 0) throw new Error(`a padded PNG needs at least ${png.length + 12} bytes`);
  const chunk = new Uint8Array(12 + dataLength);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, dataLength);
  chunk.set(new TextEncoder().encode('asOp'), 4);
  for (let i = 8; i < 8 + dataLength; i++) chunk[i] = i & 0xff;
  view.setUint32(8 + dataLength, crc32(chunk.subarray(4, 8 + dataLength)));
  const end = png.length - 12;
  return new Uint8Array(Buffer.concat([png.subarray(0, end), chunk, png.subarray(end)]));
}

/** A PNG with a transparent background and an opaque blue square in its middle third. */
export async function cutoutPng(width = 60, height = 60): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="${width / 3}" y="${height / 3}" width="${width / 3}" height="${height / 3}" fill="#2244cc"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A JPEG with a horizontal grey gradient. */
export async function gradientJpeg(width = 64, height = 48): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.fill(Math.round((x / (width - 1)) * 255), (y * width + x) * 3, (y * width + x) * 3 + 3);
  return new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

/** A running service over fresh data, with one API key. */
export interface TestService {
  service: JobService;
  url: string;
  key: string;
  dataDir: string;
  databaseUrl?: string;
  /** Stops the service and removes its data. */
  stop(): Promise<void>;
}

/** Starts a service on a free loopback port that may fetch loopback image URLs, over `data` or fresh data of `backend` (files unless told). */
export async function startTestService(options: Partial<JobServiceOptions> & { backend?: BackendKind } = {}, data?: TestData): Promise<TestService> {
  const { backend = 'files', ...rest } = options;
  const owned = data ? undefined : await testData(backend);
  const use = data ?? owned!;
  const service = await startJobService({ port: 0, allowLoopbackFetch: true, concurrency: 2, ...rest, dataDir: use.dataDir, databaseUrl: use.databaseUrl });
  const key = await service.createKey('test');
  return {
    service,
    url: service.url,
    key,
    dataDir: use.dataDir,
    databaseUrl: use.databaseUrl,
    stop: async () => {
      await service.close();
      await owned?.remove();
    },
  };
}

/** `fetch` with the bearer key. */
export function authed(key: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${key}` } };
}

/** POST /v1/jobs with a JSON body. */
export function postJson(url: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/jobs`, authed(key, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
}

/** POST /v1/jobs with a multipart upload. */
export function postUpload(url: string, key: string, model: string, image: Uint8Array, headers: Record<string, string> = {}, filename = 'image.png'): Promise<Response> {
  const form = new FormData();
  form.set('model', model);
  form.set('image', new Blob([new Uint8Array(image)]), filename);
  return fetch(`${url}/v1/jobs`, authed(key, { method: 'POST', body: form, headers }));
}

/** Polls the job until it leaves `queued` and `running` (at most `attempts` polls). */
export async function waitForJob(url: string, key: string, id: string, attempts = 600): Promise<JobDocument> {
  for (let i = 0; i < attempts; i++) {
    const response = await fetch(`${url}/v1/jobs/${id}`, authed(key));
    const job = (await response.json()) as JobDocument;
    if (job.status !== 'queued' && job.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

/** A loopback HTTP server whose answers the test decides. */
export async function startImageServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses a binary little-endian PLY of x, y, z floats and red, green, blue bytes. */
export function parsePly(bytes: Uint8Array): { count: number; points: Array<{ x: number; y: number; z: number; r: number; g: number; b: number }> } {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 2048)));
  const end = text.indexOf('end_header\n');
  if (!text.startsWith('ply\n') || end < 0) throw new Error('not a PLY file');
  const header = text.slice(0, end).split('\n');
  if (!header.includes('format binary_little_endian 1.0')) throw new Error('not binary little-endian');
  const props = header.filter((l) => l.startsWith('property ')).join(',');
  if (props !== 'property float x,property float y,property float z,property uchar red,property uchar green,property uchar blue') throw new Error(`unexpected properties ${props}`);
  const count = Number(/element vertex (\d+)/.exec(text)?.[1]);
  const start = end + 'end_header\n'.length;
  if (bytes.length !== start + count * 15) throw new Error(`expected ${start + count * 15} bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const points = [];
  for (let i = 0, o = start; i < count; i++, o += 15) {
    points.push({ x: view.getFloat32(o, true), y: view.getFloat32(o + 4, true), z: view.getFloat32(o + 8, true), r: bytes[o + 12]!, g: bytes[o + 13]!, b: bytes[o + 14]! });
  }
  return { count, points };
}
