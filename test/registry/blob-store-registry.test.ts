/**
 * A registry whose representation bytes live in an S3-compatible store (s3rver on loopback), addressed by their
 * SHA-256: `new-version` uploads them and writes none into `registry/`, check asks their size or (`--deep`) hashes
 * them, the build publishes them verified, and a missing or replaced blob is an error naming the version, the
 * representation and the key.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { runNewVersion } from '../../scripts/new-version.ts';
import { S3Objects } from '../../src/io/s3-objects.ts';
import { buildSite, repoRoot } from '../support/build-site.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';

const run = promisify(execFile);
const ORIGIN = 'https://registry.example.org';
const SAMPLE = join(repoRoot, 'registry', 'objects', 'oak-chair', 'versions', '1.0.0', 'representations');
const VERSION = 'registry/objects/oak-stool/versions/1.0.0';

let s3: S3Server;
let work: string;
let repo: string;
let objects: S3Objects;
let env: Record<string, string | undefined>;
let store: string;
const files = ['mesh.glb', 'reference.jpg', 'preview.png'];
const bytes = new Map<string, Buffer>();
const hexOf = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  work = await mkdtemp(join(tmpdir(), 'aso-blob-store-'));
  repo = join(work, 'repo');
  await cp(join(repoRoot, 'registry'), join(repo, 'registry'), { recursive: true });
  await cp(SAMPLE, join(work, 'files'), { recursive: true });
  for (const f of files) bytes.set(f, await readFile(join(work, 'files', f)));
  store = `s3://${s3.bucket}/registry-blobs`;
  env = { ...process.env, ...s3.env, ASO_REGISTRY_DIR: '', REGISTRY_URL: ORIGIN, ASO_BLOB_STORE: store, ASO_CACHE_DIR: join(work, 'cache') };
  objects = new S3Objects(`${store}/sha256`, s3.env);
}, 60_000);

afterAll(async () => {
  objects?.close();
  await s3?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('representations in a blob store', () => {
  it('new-version uploads the files under their SHA-256 and writes only the manifest and record into registry/', async () => {
    const out = await runNewVersion(
      [join(work, 'files', 'mesh.glb'), join(work, 'files', 'reference.jpg'), '--preview', join(work, 'files', 'preview.png'), '--id', 'oak-stool', '--version', '1.0.0', '--publisher', 'Ada'],
      env,
      repo,
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`3 files uploaded to ${store}`);
    expect(out.stdout).toContain(`wrote ${VERSION}/ (aso.object.json, publication.json; its 3 files in ${store}) and its ledger line`);
    expect((await readdir(join(repo, VERSION))).sort()).toEqual(['aso.object.json', 'publication.json']);
    for (const [name, b] of bytes) expect(await objects.size(hexOf(b)), name).toBe(b.length);
  });

  it('uploads nothing the store holds already', async () => {
    const out = await runNewVersion([join(work, 'files', 'mesh.glb'), '--id', 'oak-stool', '--version', '1.0.1', '--publisher', 'Ada'], env, repo);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain(`0 files uploaded to ${store}, 1 there already`);
  });

  it('check confirms each blob by its size, and --deep downloads and hashes it', async () => {
    const out = await runCheck([], env, repo);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('; 4 files by their size in the blob store (--deep downloads and hashes them)');
    const deep = await runCheck(['--deep'], env, repo);
    expect(deep.stderr).toBe('');
    expect(deep.code).toBe(0);
    expect(deep.stdout).not.toContain('blob store');
    expect(JSON.parse((await runCheck(['--json'], env, repo)).stdout).summary.bySize).toBe(4);
    expect(JSON.parse((await runCheck(['--json', '--deep'], env, repo)).stdout).summary.bySize).toBe(0);
  });

  it('check --base treats a stored version as any published one', async () => {
    const git = (...args: string[]) => run('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('-c', 'user.name=Blob Test', '-c', 'user.email=blob@registry.test', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'registry');
    const out = await runCheck(['--base', 'HEAD'], env, repo);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/unchanged since HEAD \([0-9a-f]{12}\): 10 published versions/);
    const manifest = join(repo, VERSION, 'aso.object.json');
    const before = await readFile(manifest);
    await writeFile(manifest, Buffer.concat([before, Buffer.from(' ')]));
    try {
      const changed = await runCheck(['--base', 'HEAD'], env, repo);
      expect(changed.code).toBe(1);
      expect(changed.stderr).toContain(`${VERSION}/aso.object.json: file: changed since HEAD; oak-stool@1.0.0 is published and never changes`);
    } finally {
      await writeFile(manifest, before);
    }
  });

  it('without the store, the files are missing', async () => {
    const out = await runCheck([], { ...env, ASO_BLOB_STORE: '' }, repo);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${VERSION}/aso.object.json: /representations/0: declares representations/mesh.glb, which is missing`);
  });

  it('the build publishes the stored bytes, and a rebuild needs no store for what it verified', async () => {
    const outDir = join(work, 'site', 'dist');
    const built = await buildSite({ outDir, registryDir: join(repo, 'registry'), registryUrl: ORIGIN, cacheDir: join(work, 'cache'), env: { ...s3.env, ASO_BLOB_STORE: store } });
    expect(built.stderr).not.toContain('problem');
    expect(built.code).toBe(0);
    for (const [name, b] of bytes) {
      const id = name.slice(0, name.lastIndexOf('.'));
      const published = await readFile(join(outDir, 'objects', 'oak-stool', 'versions', '1.0.0', 'representations', name));
      expect(published.equals(b), id).toBe(true);
    }
    // The store unreachable: every blob comes from the verified copies of the last build.
    const again = await buildSite({
      outDir,
      registryDir: join(repo, 'registry'),
      registryUrl: ORIGIN,
      cacheDir: join(work, 'cache'),
      env: { ...s3.env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', ASO_BLOB_STORE: store },
    });
    expect(again.stderr).not.toContain('problem');
    expect(again.code).toBe(0);
  }, 300_000);

  it('a replaced blob passes the size check but fails --deep and the build, naming the version, the file and the key', async () => {
    const mesh = bytes.get('mesh.glb')!;
    const key = `${store}/sha256/${hexOf(mesh)}`;
    const other = Buffer.from(mesh);
    other[other.length - 1] = other[other.length - 1]! ^ 0xff;
    await objects.write(hexOf(mesh), other);
    const sized = await runCheck([], env, repo);
    expect(sized.code).toBe(0);
    const deep = await runCheck(['--deep'], { ...env, ASO_CACHE_DIR: join(work, 'cache-deep') }, repo);
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain(`${VERSION}/aso.object.json: /representations/0: the blob of representations/mesh.glb: ${key} does not match its manifest: its SHA-256 is ${hexOf(other)}, not the manifest's ${hexOf(mesh)}`);
    const built = await buildSite({ outDir: join(work, 'site-replaced', 'dist'), registryDir: join(repo, 'registry'), registryUrl: ORIGIN, env: { ...s3.env, ASO_BLOB_STORE: store } });
    expect(built.code).not.toBe(0);
    expect(built.stderr).toContain(`the blob of representations/mesh.glb: ${key} does not match its manifest`);
    await objects.write(hexOf(mesh), mesh);
  }, 120_000);

  it('a deleted blob fails check and the build, naming the key', async () => {
    const jpg = bytes.get('reference.jpg')!;
    const key = `${store}/sha256/${hexOf(jpg)}`;
    await objects.delete(hexOf(jpg));
    const out = await runCheck([], env, repo);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${VERSION}/aso.object.json: /representations/1: declares representations/reference.jpg, which is neither in representations/ nor in the blob store: ${key} is missing`);
    const built = await buildSite({ outDir: join(work, 'site-deleted', 'dist'), registryDir: join(repo, 'registry'), registryUrl: ORIGIN, env: { ...s3.env, ASO_BLOB_STORE: store } });
    expect(built.code).not.toBe(0);
    expect(built.stderr).toContain(`/representations/1: the blob of representations/reference.jpg: ${key} is missing from the blob store`);
  }, 120_000);

  it('refuses a store that is not an s3:// URL, naming the variable', async () => {
    const out = await runCheck([], { ...env, ASO_BLOB_STORE: 'https://example.com/bucket' }, repo);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('ASO_BLOB_STORE must be s3://<bucket>/<prefix>');
  });
});
