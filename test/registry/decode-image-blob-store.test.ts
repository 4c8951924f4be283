/**
 * A preview kept in the blob store (s3rver on loopback) that does not decode: `check` confirms it by its size alone,
 * `check --deep` and the build's check download it and refuse it, naming the file.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { S3Objects } from '../../src/io/s3-objects.ts';
import { openRegistryBlobs } from '../../src/registry/registry-blobs.ts';
import { checkSite } from '../../src/site/data/load-site.ts';
import { repoRoot } from '../support/build-site.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';
import { createFixture, REGISTRY_URL, type Fixture } from './fixture.ts';

const PROBLEM = 'registry/objects/lamp/versions/1.0.0/representations/preview.jpg: file: does not decode as image/jpeg: the file ends before the image data does (truncated?)';

let s3: S3Server;
let fx: Fixture;
let work: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  s3 = await startS3Server();
  work = await mkdtemp(join(tmpdir(), 'aso-decode-blob-'));
  fx = await createFixture();
  const photo = await readFile(join(repoRoot, 'registry', 'objects', 'field-photo', 'versions', '1.0.0', 'representations', 'photo.jpg'));
  const cut = photo.subarray(0, photo.length - 2);
  await fx.addVersion({ id: 'lamp', version: '1.0.0', preview: { id: 'preview', type: 'image', format: 'jpg', mediaType: 'image/jpeg', bytes: cut } });
  // The preview lives only in the store, under its SHA-256.
  const store = `s3://${s3.bucket}/registry-blobs`;
  const objects = new S3Objects(`${store}/sha256`, s3.env);
  await objects.write(createHash('sha256').update(cut).digest('hex'), cut);
  objects.close();
  await rm(fx.path('objects/lamp/versions/1.0.0/representations/preview.jpg'));
  env = { ...process.env, ...s3.env, ASO_REGISTRY_DIR: '', REGISTRY_URL, ASO_BLOB_STORE: store, ASO_CACHE_DIR: join(work, 'cache') };
}, 60_000);

afterAll(async () => {
  await fx?.cleanup();
  await s3?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

it('check confirms the stored preview by its size, without its content', async () => {
  const out = await runCheck([], env, fx.repo);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  expect(out.stdout).toContain('; 1 file by its size in the blob store (--deep downloads and hashes them)');
});

it('check --deep downloads it and refuses it, naming the file', async () => {
  expect(await runCheck(['--deep'], env, fx.repo)).toEqual({ code: 1, stdout: '', stderr: `${PROBLEM}\n` });
});

it("the build's check downloads it and stops on it", async () => {
  const cacheDir = join(work, 'build-cache');
  const blobs = openRegistryBlobs(env, cacheDir)!;
  try {
    await expect(checkSite({ registryRoot: fx.root, registryUrl: REGISTRY_URL, cacheDir, blobs })).rejects.toThrow(`the registry has 1 problem:\n${PROBLEM}`);
  } finally {
    blobs.close();
  }
});
