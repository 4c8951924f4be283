/** End to end against the reference job service over real HTTP: a new object, its next version, a correction, and the site built from them. */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { verifyLedger } from '@aso-registry/core/log/ledger';
import { sriToHex } from '@aso-registry/core/format/sri';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { validateGltfBytes } from '../../src/registry/validate-gltf.ts';
import { buildSite } from '../support/build-site.ts';
import { createRepo, jpegWithExif, photoPng, publish, recordIo, REGISTRY_URL, startService, type TestRepo } from './helpers.ts';

let svc: Awaited<ReturnType<typeof startService>>;
let api: { url: string; key: string };
let repo: TestRepo;

beforeAll(async () => {
  svc = await startService();
  api = { url: svc.service.url, key: svc.key };
  repo = await createRepo();
});
afterAll(async () => {
  await svc?.close();
  await repo?.remove();
});

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

function versionDir(id: string, version: string): string {
  return repo.path('registry', 'objects', id, 'versions', version);
}

describe('submit: image -> job -> version -> commit', () => {
  it('publishes a new object as 1.0.0 on its own branch, with primary, reference and preview, and one commit', async () => {
    const marker = 'SecretOwner42';
    await import('node:fs/promises').then((fs) => jpegWithExif(marker).then((b) => fs.writeFile(repo.path('photo.jpg'), b)));
    const io = recordIo();
    const result = await publish(
      repo,
      api,
      { image: 'photo.jpg', model: 'relief', object: 'demo', name: 'Demo relief', description: 'A relief of a disc.', tags: ['demo', 'relief'], license: 'CC0-1.0' },
      io,
    );
    expect(result).toMatchObject({ id: 'demo', version: '1.0.0', branch: 'publish/demo/1.0.0' });
    // Each step was reported as it happened.
    expect(io.lines.filter((l) => /^\[\d\/8\] /.test(l)).length).toBe(8);
    expect(io.lines.some((l) => l.includes('succeeded 100%'))).toBe(true);

    const dir = versionDir('demo', '1.0.0');
    const manifest = await readJson<Manifest>(join(dir, 'aso.object.json'));
    expect(manifest).toMatchObject({ id: 'demo', version: '1.0.0', name: 'Demo relief', description: 'A relief of a disc.', tags: ['demo', 'relief'], license: 'CC0-1.0' });
    expect(manifest.representations.map((r) => [r.id, r.type, r.format, r.mediaType])).toEqual([
      ['primary', 'mesh', 'glb', 'model/gltf-binary'],
      ['reference', 'image', 'jpg', 'image/jpeg'],
    ]);
    expect(manifest.preview).toMatchObject({ id: 'preview', format: 'png', url: `${REGISTRY_URL}/objects/demo/versions/1.0.0/representations/preview.png` });
    const provenance = manifest.provenance as Record<string, any>;
    expect(provenance.generator).toEqual({ model: 'relief', version: '1.0.0', provider: 'aso-reference-jobs', parameters: expect.objectContaining({ gridMax: 256 }) });
    expect(provenance.pipeline.runId).toBe(result.jobId);
    expect(provenance.outputs).toHaveLength(3);
    for (const [i, rep] of [...manifest.representations, manifest.preview!].entries()) {
      const out = provenance.outputs[i];
      expect(out).toMatchObject({ url: rep.url, sha256: sriToHex(rep.hash), byteLength: rep.byteLength, mediaType: rep.mediaType });
      expect(out.assetId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(provenance.outputs[1]).toMatchObject({ role: 'reference-image', width: 40, height: 30 });

    // The asset is valid glTF; the reference is a JPEG with the metadata of the input stripped.
    const glb = new Uint8Array(await readFile(join(dir, 'representations', 'primary.glb')));
    expect((await validateGltfBytes(glb, { format: 'glb' })).findings).toEqual([]);
    const reference = await readFile(join(dir, 'representations', 'reference.jpg'));
    const meta = await sharp(reference).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(reference.includes(marker)).toBe(false);
    expect((await sharp(await readFile(join(dir, 'representations', 'preview.png'))).metadata()).format).toBe('png');

    // publication.json, and the ledger line in the same commit.
    const publication = await readJson<PublicationRecord>(join(dir, 'publication.json'));
    expect(publication).toMatchObject({ publicationId: result.publicationId, publisher: 'Publish Test', recordHash: result.recordHash });
    const ledger = await verifyLedger(await readFile(repo.path('registry', 'ledger.jsonl'), 'utf8'));
    expect(ledger.problems).toEqual([]);
    expect(ledger.entries.map((e) => [e.id, e.version, e.publicationId, e.recordHash])).toEqual([['demo', '1.0.0', result.publicationId, result.recordHash]]);

    expect((await repo.git('branch', '--show-current')).trim()).toBe('publish/demo/1.0.0');
    expect((await repo.git('log', '--format=%s', 'main..HEAD')).trim()).toBe('Publish demo@1.0.0');
    const committed = (await repo.git('show', '--name-only', '--format=', 'HEAD')).trim().split('\n').sort();
    expect(committed).toEqual([
      'registry/ledger.jsonl',
      'registry/objects/demo/versions/1.0.0/aso.object.json',
      'registry/objects/demo/versions/1.0.0/publication.json',
      'registry/objects/demo/versions/1.0.0/representations/preview.png',
      'registry/objects/demo/versions/1.0.0/representations/primary.glb',
      'registry/objects/demo/versions/1.0.0/representations/reference.jpg',
    ]);
    // The input photo stays untracked, outside the commit; the state file is gone.
    expect((await repo.git('status', '--porcelain')).trim()).toBe('?? photo.jpg');
    await expect(stat(join(repo.stateDir, `${result.jobId}.json`))).rejects.toThrow();

    const check = await runCheck([], { REGISTRY_URL }, repo.dir);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('ledger OK: 1 publication');
    // What a pull request's CI runs: nothing published at the base changed.
    const base = await runCheck(['--base', 'main'], { REGISTRY_URL }, repo.dir);
    expect(base.stderr).toBe('');
    expect(base.code).toBe(0);
  });

  it('publishes the next version, carrying the metadata over unless a flag overrides it', async () => {
    await repo.git('switch', '-q', 'main');
    await repo.git('merge', '-q', '--ff-only', 'publish/demo/1.0.0');
    await import('node:fs/promises').then(async (fs) => fs.writeFile(repo.path('photo.png'), await photoPng()));
    const next = await publish(repo, api, { image: 'photo.png', model: 'points', object: 'demo', license: 'CC-BY-4.0' });
    expect(next).toMatchObject({ version: '1.0.1', branch: 'publish/demo/1.0.1' });
    const manifest = await readJson<Manifest>(join(versionDir('demo', '1.0.1'), 'aso.object.json'));
    expect(manifest).toMatchObject({ name: 'Demo relief', description: 'A relief of a disc.', tags: ['demo', 'relief'], license: 'CC-BY-4.0' });
    expect(manifest.representations[0]).toMatchObject({ id: 'primary', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream' });
    expect((await readFile(join(versionDir('demo', '1.0.1'), 'representations', 'primary.ply'))).subarray(0, 4).toString()).toBe('ply\n');
    // 1.0.0 is untouched: same bytes as on main.
    expect((await repo.git('diff', '--name-only', 'main', 'HEAD', '--', 'registry/objects/demo/versions/1.0.0')).trim()).toBe('');

    await repo.git('switch', '-q', 'main');
    await repo.git('merge', '-q', '--ff-only', 'publish/demo/1.0.1');
    const minor = await publish(repo, api, { image: 'photo.png', model: 'card', object: 'demo', bump: 'minor', commit: false });
    expect(minor).toMatchObject({ version: '1.1.0' });
    expect(minor.branch).toBeUndefined();
    expect((await repo.git('branch', '--show-current')).trim()).toBe('main');
    expect((await repo.git('status', '--porcelain', '--', 'registry')).trimEnd().split('\n').sort()).toEqual([' M registry/ledger.jsonl', '?? registry/objects/demo/versions/1.1.0/']);
    const check = await runCheck([], { REGISTRY_URL }, repo.dir);
    expect(check.stderr).toBe('');
    await repo.git('add', 'registry');
    await repo.git('commit', '-q', '-m', 'publish demo 1.1.0');
  });

  it('corrects a version: new metadata and provenance.correction, the very same bytes', async () => {
    const source = await readJson<Manifest>(join(versionDir('demo', '1.0.0'), 'aso.object.json'));
    const sourcePublication = await readJson<PublicationRecord>(join(versionDir('demo', '1.0.0'), 'publication.json'));
    const io = recordIo();
    const fixed = await publish(repo, null, { correct: 'demo@1.0.0', reason: 'the license was wrong', license: 'MIT', name: 'Demo disc relief' }, io);
    expect(fixed).toMatchObject({ id: 'demo', version: '1.1.1', branch: 'publish/demo/1.1.1' });
    expect(fixed.jobId).toBeUndefined();
    const manifest = await readJson<Manifest>(join(versionDir('demo', '1.1.1'), 'aso.object.json'));
    expect(manifest).toMatchObject({ name: 'Demo disc relief', license: 'MIT', description: source.description, tags: source.tags, generator: source.generator });
    expect(manifest.provenance.correction).toEqual({ reason: 'the license was wrong', sourceObject: { id: 'demo', version: '1.0.0' }, sourcePublicationId: sourcePublication.publicationId });
    expect(manifest.representations.map((r) => [r.id, r.hash, r.byteLength])).toEqual(source.representations.map((r) => [r.id, r.hash, r.byteLength]));
    expect(manifest.preview?.hash).toBe(source.preview?.hash);
    expect(manifest.representations[0]!.url).toBe(`${REGISTRY_URL}/objects/demo/versions/1.1.1/representations/primary.glb`);
    const outputs = manifest.provenance.outputs as Array<{ assetId: string; url: string }>;
    expect(outputs.map((o) => o.assetId)).toEqual((source.provenance.outputs as Array<{ assetId: string }>).map((o) => o.assetId));
    expect(outputs.every((o) => o.url.includes('/versions/1.1.1/'))).toBe(true);
    expect((await repo.git('log', '-1', '--format=%B')).trim()).toContain('Reason: the license was wrong');
    expect((await runCheck([], { REGISTRY_URL }, repo.dir)).code).toBe(0);
  });

  it('the site built from the new registry has the record page of each new version', async () => {
    const work = await mkdtemp(join(tmpdir(), 'aso-publish-site-'));
    try {
      const outDir = join(work, 'dist');
      const result = await buildSite({ outDir, registryDir: repo.path('registry'), registryUrl: REGISTRY_URL, cacheDir: join(work, 'cache') });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      const page = await readFile(join(outDir, 'objects', 'demo', 'versions', '1.1.1', 'index.html'), 'utf8');
      expect(page).toContain('Demo disc relief');
      expect(page).toContain('Verified');
      const first = await readFile(join(outDir, 'objects', 'demo', 'versions', '1.0.0', 'aso.object.json'));
      expect(first.equals(await readFile(join(versionDir('demo', '1.0.0'), 'aso.object.json')))).toBe(true);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 180_000);
});
