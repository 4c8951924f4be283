/**
 * `submit` with `ASO_BLOB_STORE`: the generated version's files go to the S3-compatible store under their SHA-256 and
 * the commit holds only the manifest, the record and the ledger line; a correction reads the stored bytes back.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { sriToHex } from '@aso-registry/core/format/sri';
import type { Manifest } from '@aso-registry/core/format/types';
import { S3Objects } from '../../src/io/s3-objects.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';
import { createRepo, photoPng, publish, recordIo, REGISTRY_URL, type TestRepo } from './helpers.ts';

let s3: S3Server;
let repo: TestRepo;
let objects: S3Objects;
let env: Record<string, string>;
const store = (s3: S3Server): string => `s3://${s3.bucket}/blobs`;

beforeAll(async () => {
  s3 = await startS3Server();
  repo = await createRepo();
  objects = new S3Objects(`${store(s3)}/sha256`, s3.env);
  env = { REGISTRY_URL, ...s3.env, ASO_BLOB_STORE: store(s3), ASO_CACHE_DIR: join(repo.stateDir, 'cache') };
  await writeFile(repo.path('photo.png'), await photoPng());
}, 60_000);

afterAll(async () => {
  objects?.close();
  await s3?.close();
  await repo?.remove();
});

describe('submit with a blob store', () => {
  it('uploads the files and commits only the manifest, the record and the ledger line', async () => {
    const io = recordIo();
    const result = await publish(repo, null, { image: 'photo.png', model: 'relief', object: 'disc', env }, io);
    expect(io.errors).toEqual([]);
    expect(io.lines.some((l) => l.includes(`3 files uploaded to ${store(s3)}`))).toBe(true);
    const dir = repo.path('registry', 'objects', 'disc', 'versions', '1.0.0');
    expect((await readdir(dir)).sort()).toEqual(['aso.object.json', 'publication.json']);
    const committed = (await repo.git('show', '--name-only', '--format=', result.commit!)).trim().split('\n').sort();
    expect(committed).toEqual(['registry/ledger.jsonl', 'registry/objects/disc/versions/1.0.0/aso.object.json', 'registry/objects/disc/versions/1.0.0/publication.json']);
    const manifest = JSON.parse(await readFile(join(dir, 'aso.object.json'), 'utf8')) as Manifest;
    for (const rep of [...manifest.representations, manifest.preview!]) expect(await objects.size(sriToHex(rep.hash)), rep.id).toBe(rep.byteLength);
    const check = await runCheck([], { ...env, ASO_REGISTRY_DIR: '' }, repo.dir);
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('3 files by their size in the blob store');
  }, 120_000);

  it('corrects a stored version with the very same bytes, read back from the store', async () => {
    const io = recordIo();
    await repo.git('switch', '-q', 'publish/disc/1.0.0');
    const fixed = await publish(repo, null, { correct: 'disc@1.0.0', reason: 'the name was wrong', name: 'Disc relief', env }, io);
    expect(io.errors).toEqual([]);
    const read = async (v: string) => JSON.parse(await readFile(repo.path('registry', 'objects', 'disc', 'versions', v, 'aso.object.json'), 'utf8')) as Manifest;
    const [before, after] = [await read('1.0.0'), await read(fixed.version)];
    expect(after.name).toBe('Disc relief');
    expect(after.representations.map((r) => r.hash)).toEqual(before.representations.map((r) => r.hash));
    expect(io.lines.some((l) => l.includes('0 files uploaded') && l.includes('3 there already'))).toBe(true);
  }, 120_000);
});
