import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3Objects } from '../../src/io/s3-objects.ts';
import { runJobsCli, type RunningService } from '../../src/jobs/service/cli.ts';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';
import { authed, BACKENDS, discPng, postJson, postUpload, startImageServer, tempDir, testData, waitForJob } from './helpers.ts';

let s3: S3Server;
let bucket: S3Objects;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  s3 = await startS3Server();
  bucket = new S3Objects(`s3://${s3.bucket}`, s3.env);
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  bucket.close();
  await s3.close();
});

/** `npm run jobs -- serve` in this process, with `env` as its environment; the exit code and the lines it wrote when it does not start. */
async function serve(args: string[], env: Record<string, string>): Promise<{ service?: RunningService; code?: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const result = await runJobsCli(['serve', '--port', '0', '--concurrency', '1', ...args], { out: (l) => out.push(l), err: (l) => err.push(l), env });
  if (typeof result === 'number') return { code: result, out, err };
  cleanups.push(() => result.close());
  return { service: result, out, err };
}

async function objectBytes(key: string): Promise<Buffer | undefined> {
  const body = await bucket.read(key);
  return body ? buffer(body) : undefined;
}

describe.each(BACKENDS)('the job service with its blobs in an S3-compatible store (%s)', (backend) => {
  it('an uploaded image and a fetched one become jobs whose inputs and assets live in the bucket, never in the data folder', async () => {
    const data = await testData(backend);
    cleanups.push(data.remove);
    const prefix = `jobs-${backend}`;
    const db = data.databaseUrl ? ['--database-url', data.databaseUrl] : [];
    const { service, out, err } = await serve(['--data', data.dataDir, '--blob-store', `s3://${s3.bucket}/${prefix}`, '--allow-loopback-fetch', ...db], s3.env);
    if (!service) throw new Error(`serve did not start: ${err.join('\n')}`);
    expect(out.join('\n')).toContain(`blobs: s3://${s3.bucket}/${prefix}`);
    expect(await (await fetch(`${service.url}/readyz`)).json()).toMatchObject({ ok: true, checks: { blob_store: 'ok' } });
    const key = await service.createKey('s3');
    const png = await discPng();
    const images = await startImageServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    cleanups.push(() => images.close());

    const uploadResponse = await postUpload(service.url, key, 'points', png);
    const fetchResponse = await postJson(service.url, key, { model: 'card', image_url: `${images.url}/disc.png` });
    expect([uploadResponse.status, fetchResponse.status]).toEqual([202, 202]);
    const uploaded = (await uploadResponse.json()) as JobDocument;
    const fetched = (await fetchResponse.json()) as JobDocument;
    for (const created of [uploaded, fetched]) {
      const job = await waitForJob(service.url, key, created.id);
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      const download = await fetch(job.download_url!, authed(key));
      expect(download.status).toBe(200);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(download.headers.get('content-length')).toBe(String(bytes.length));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(job.asset!.sha256);
      expect((await objectBytes(`${prefix}/${job.id}.${job.asset!.format}`))?.equals(bytes)).toBe(true);
      expect((await objectBytes(`${prefix}/${job.id}.input`))?.equals(png)).toBe(true);
    }

    // Nothing of any job in the data folder: no blob folder, no staged upload left, no file holding the asset's bytes.
    const files = (await readdir(data.dataDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    const names = files.map((entry) => join(entry.parentPath, entry.name).slice(data.dataDir.length + 1));
    expect(names.filter((name) => name.startsWith('blobs') || name.startsWith('staging'))).toEqual([]);
    const asset = (await objectBytes(`${prefix}/${uploaded.id}.ply`))!;
    for (const entry of files) expect((await readFile(join(entry.parentPath, entry.name))).includes(asset.subarray(0, 256)), entry.name).toBe(false);
  });
});

describe('npm run jobs -- serve --blob-store', () => {
  it('refuses a malformed store naming the flag or the variable it came from, as a usage mistake', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const flag = await serve(['--data', dir.path, '--blob-store', 'https://example.com/blobs'], s3.env);
    expect(flag.code).toBe(2);
    expect(flag.err[0]).toMatch(/^error: --blob-store must be s3:\/\/<bucket>\/<prefix>, got "https:\/\/example.com\/blobs"/);
    const variable = await serve(['--data', dir.path], { ...s3.env, ASO_BLOB_STORE: 's3://Bad_Bucket/x' });
    expect(variable.code).toBe(2);
    expect(variable.err[0]).toMatch(/^error: ASO_BLOB_STORE: "Bad_Bucket" is not an S3 bucket name/);
  });

  it('does not start when the bucket cannot be written, naming the store and why', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const missing = await serve(['--data', dir.path], { ...s3.env, ASO_BLOB_STORE: 's3://no-such-bucket/jobs' });
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toMatch(/^error: the blob store s3:\/\/no-such-bucket\/jobs cannot be written: PUT s3:\/\/no-such-bucket\/jobs\/\.probe-[0-9a-f]+ failed \(HTTP 404 NoSuchBucket\)/);
    // The data folder was released: the same folder serves once the store is right.
    const { service, err } = await serve(['--data', dir.path], { ...s3.env, ASO_BLOB_STORE: `s3://${s3.bucket}/jobs` });
    expect(service, err.join('\n')).toBeDefined();
  });
});
