/**
 * `npm run new-version` end to end: files on disk become a version that passes the check and builds into a record page;
 * whatever the check would refuse is refused before anything is written; `--json` prints only JSON.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { runNewVersion } from '../../scripts/new-version.ts';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';
import { buildSite, repoRoot } from '../support/build-site.ts';
import { sri } from '../support/fixture-registry.ts';

const run = promisify(execFile);
const ORIGIN = 'https://registry.example.org';
const SAMPLE = join(repoRoot, 'registry', 'objects', 'oak-chair', 'versions', '1.0.0', 'representations');
const env = { ...process.env, ASO_REGISTRY_DIR: '', REGISTRY_URL: ORIGIN };

let work: string;
/** A fresh copy of the sample registry in `<dir>/registry`, with the sample's files to publish in `<dir>/files`. */
async function workspace(name: string): Promise<{ dir: string; files: string }> {
  const dir = join(work, name);
  await cp(join(repoRoot, 'registry'), join(dir, 'registry'), { recursive: true });
  await cp(SAMPLE, join(dir, 'files'), { recursive: true });
  return { dir, files: join(dir, 'files') };
}

/** Every file of a folder tree with its bytes, to show that nothing changed. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(join(entry.parentPath, entry.name), sri(await readFile(join(entry.parentPath, entry.name))));
  }
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-new-version-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run new-version', () => {
  it('turns files into a version that passes the check and builds into its record page', async () => {
    const { dir, files } = await workspace('ok');
    const out = await runNewVersion(
      [join(files, 'mesh.glb'), 'files/reference.jpg', '--preview', 'files/preview.png', '--id', 'oak-stool', '--version', '1.0.0', '--name', 'Oak stool', '--tags', 'wood, furniture', '--license', 'CC-BY-4.0', '--publisher', 'Ada', '--created-at', '2026-03-01T10:00:00Z'],
      env,
      dir,
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('wrote registry/objects/oak-stool/versions/1.0.0/ (aso.object.json, publication.json, 3 files) and its ledger line');
    expect(out.stdout).toContain('registry OK: 6 objects, 9 versions');

    const vdir = join(dir, 'registry', 'objects', 'oak-stool', 'versions', '1.0.0');
    const manifestBytes = await readFile(join(vdir, 'aso.object.json'));
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
    const publication = JSON.parse(await readFile(join(vdir, 'publication.json'), 'utf8')) as PublicationRecord;
    const mesh = await readFile(join(files, 'mesh.glb'));
    expect(manifest).toMatchObject({ id: 'oak-stool', version: '1.0.0', name: 'Oak stool', tags: ['wood', 'furniture'], license: 'CC-BY-4.0', createdAt: '2026-03-01T10:00:00Z' });
    expect(manifest.representations.map((r) => [r.id, r.type, r.format, r.mediaType])).toEqual([
      ['mesh', 'mesh', 'glb', 'model/gltf-binary'],
      ['reference', 'image', 'jpg', 'image/jpeg'],
    ]);
    expect(manifest.representations[0]).toMatchObject({ byteLength: mesh.length, hash: sri(mesh), url: `${ORIGIN}/objects/oak-stool/versions/1.0.0/representations/mesh.glb` });
    expect(manifest.preview).toMatchObject({ id: 'preview', type: 'image', format: 'png', mediaType: 'image/png' });
    expect(publication.recordHash).toBe(sri(manifestBytes));
    expect(publication.publisher).toBe('Ada');
    const ledger = (await readFile(join(dir, 'registry', 'ledger.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(ledger.at(-1)!)).toMatchObject({ id: 'oak-stool', version: '1.0.0', recordHash: publication.recordHash, publicationId: publication.publicationId });

    const checked = await runCheck(['--registry', 'registry'], env, dir);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);

    const built = await buildSite({ outDir: join(dir, 'dist'), registryDir: join(dir, 'registry'), cacheDir: join(dir, 'cache') });
    expect(built.code, built.stderr).toBe(0);
    const html = await readFile(join(dir, 'dist', 'objects', 'oak-stool', 'versions', '1.0.0', 'index.html'), 'utf8');
    expect(html).toContain('Oak stool');
    expect(html).toContain(publication.recordHash);
    expect(html).toContain('href="https://spdx.org/licenses/CC-BY-4.0.html"');
  }, 240_000);

  it('refuses, writing nothing, a file that fails the check, an unknown file type, an existing version and a broken registry', async () => {
    const { dir, files } = await workspace('refused');
    const before = await snapshot(join(dir, 'registry'));
    await writeFile(join(files, 'broken.glb'), 'glTF but not really');
    await writeFile(join(files, 'notes.txt'), 'hello');
    const args = (file: string, version = '1.0.0') => [join(files, file), '--id', 'oak-stool', '--version', version];

    const invalid = await runNewVersion(args('broken.glb'), env, dir);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('the new version does not pass the registry check');
    expect(invalid.stderr).toContain('registry/objects/oak-stool/versions/1.0.0/representations/broken.glb');

    const unknown = await runNewVersion(args('notes.txt'), env, dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('notes.txt: unknown file type; the registry takes .glb, .gltf, .png, .jpg, .jpeg, .webp, .avif, .ply');

    const existing = await runNewVersion([join(files, 'mesh.glb'), '--id', 'oak-chair', '--version', '1.0.0'], env, dir);
    expect(existing.code).toBe(1);
    expect(existing.stderr).toContain('oak-chair@1.0.0 exists already');

    const badId = await runNewVersion([join(files, 'mesh.glb'), '--id', '../escape', '--version', '1.0.0'], env, dir);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('--id "../escape" is not an object id');

    const twice = await runNewVersion([join(files, 'mesh.glb'), join(files, 'mesh.glb'), '--id', 'oak-stool', '--version', '1.0.0'], env, dir);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('two files are named "mesh.*"');

    expect(await snapshot(join(dir, 'registry'))).toEqual(before);

    // A registry that fails the check already: nothing is added on top of it.
    const tampered = join(dir, 'registry', 'objects', 'oak-chair', 'versions', '1.0.0', 'representations', 'mesh.glb');
    await writeFile(tampered, Buffer.concat([await readFile(tampered), Buffer.from([0])]));
    const broken = await snapshot(join(dir, 'registry'));
    const refused = await runNewVersion(args('mesh.glb'), env, dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the registry does not pass npm run check now; fix it before adding a version');
    expect(refused.stderr).toContain('registry/objects/oak-chair/versions/1.0.0/aso.object.json: /representations/0/byteLength: byte length mismatch for representations/mesh.glb');
    expect(await snapshot(join(dir, 'registry'))).toEqual(broken);
  }, 120_000);

  it('prints pure JSON on stdout with npm run --silent, for new-version and for check', async () => {
    const { dir, files } = await workspace('json');
    const npm = async (args: string[]) => {
      try {
        return { code: 0, ...(await run('npm', ['run', '--silent', '--prefix', repoRoot, ...args], { cwd: dir, env: { ...env, ASO_REGISTRY_DIR: join(dir, 'registry') } })) };
      } catch (error) {
        return error as { code: number; stdout: string; stderr: string };
      }
    };
    const added = await npm(['new-version', '--', join(files, 'reference.jpg'), '--id', 'photo-only', '--version', '0.1.0', '--json']);
    expect(added.code).toBe(0);
    const doc = JSON.parse(added.stdout) as { ok: boolean; id: string; version: string; representations: unknown[]; check: { ok: boolean } };
    expect(doc).toMatchObject({ ok: true, id: 'photo-only', version: '0.1.0', check: { ok: true } });
    expect(doc.representations).toHaveLength(1);

    const again = await npm(['new-version', '--', join(files, 'reference.jpg'), '--id', 'photo-only', '--version', '0.1.0', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, error: expect.stringContaining('exists already') });

    const checked = await npm(['check', '--', '--json']);
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ ok: true, summary: { versions: 9 } });
  }, 120_000);
});
