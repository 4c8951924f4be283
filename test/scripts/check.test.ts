import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { createFixture, glbFile, REGISTRY_URL, type Fixture } from '../registry/fixture.ts';

const run = promisify(execFile);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(repo, 'scripts', 'check.ts');
const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Runs `tsx scripts/check.ts` as `npm run check` does, and returns its exit code and output. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, script, ...args], {
      cwd,
      env: { ...process.env, ASO_REGISTRY_DIR: '', REGISTRY_URL: REGISTRY_URL, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run check', () => {
  let good: Fixture;
  let bad: Fixture;
  let glbBytes: number;
  const env = { REGISTRY_URL };

  beforeAll(async () => {
    good = await createFixture();
    await good.addVersion({ id: 'chair', version: '1.0.0' });
    await good.addVersion({ id: 'chair', version: '1.1.0' });
    await good.addVersion({ id: 'table', version: '0.1.0' });
    bad = await createFixture();
    glbBytes = (await glbFile()).bytes.length;
    await bad.addVersion({ id: 'chair', version: '1.0.0', edit: (m) => (m.representations[0]!.byteLength = 1) });
    await bad.write('objects/chair/versions/1.0.0/notes.txt', 'x');
  });
  afterAll(async () => {
    await good.cleanup();
    await bad.cleanup();
  });

  const badLines = (): string[] => [
    `registry/objects/chair/versions/1.0.0/notes.txt: file: unknown file in a version folder; expected only aso.object.json, publication.json and representations/`,
    `registry/objects/chair/versions/1.0.0/aso.object.json: /representations/0/byteLength: byte length mismatch for representations/mesh.glb: expected 1, actual ${glbBytes}`,
  ];

  it('prints a one-line summary and exits 0 on a valid registry', async () => {
    const out = await runCheck([], env, good.repo);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^registry OK: 2 objects, 3 versions, 6 files, [\d,]+ bytes verified\n$/);
  });

  it('prints one line per problem on stderr and exits 1', async () => {
    expect(await runCheck([], env, bad.repo)).toEqual({ code: 1, stdout: '', stderr: badLines().map((l) => `${l}\n`).join('') });
  });

  it('prints the same as JSON with --json', async () => {
    const ok = await runCheck(['--json'], env, good.repo);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      ok: true,
      registryUrl: REGISTRY_URL,
      summary: { objects: 2, versions: 3, files: 6, bytes: expect.any(Number), byPointer: 0, bySize: 0 },
      files: expect.any(Array),
      problems: [],
    });
    const failed = await runCheck(['--json'], env, bad.repo);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({
      ok: false,
      registryUrl: REGISTRY_URL,
      summary: { objects: 1, versions: 1, files: 1, bytes: expect.any(Number), byPointer: 0, bySize: 0 },
      files: expect.any(Array),
      problems: badLines(),
    });
  });

  it('reads the folder of --registry, else ASO_REGISTRY_DIR, else ./registry', async () => {
    expect((await runCheck(['--registry', good.root], env, bad.repo)).code).toBe(0);
    expect((await runCheck([], { ...env, ASO_REGISTRY_DIR: good.root }, bad.repo)).code).toBe(0);
    expect((await runCheck(['--registry', 'registry'], { ...env, ASO_REGISTRY_DIR: good.root }, bad.repo)).code).toBe(1);
  });

  it('checks urls against REGISTRY_URL, else the default', async () => {
    const other = await runCheck([], { REGISTRY_URL: 'https://other.test' }, good.repo);
    expect(other.code).toBe(1);
    expect(other.stderr.split('\n')[0]).toBe(
      `registry/objects/chair/versions/1.0.0/aso.object.json: /representations/0/url: is not the URL of the file: expected https://other.test/objects/chair/versions/1.0.0/representations/mesh.glb, actual ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/mesh.glb`,
    );
    const byDefault = await runCheck([], {}, good.repo);
    expect(byDefault.stderr).toContain('expected https://registry.example.org/objects/chair/');
  });

  it('names a missing registry folder', async () => {
    expect(await runCheck(['--registry', 'nowhere'], env, good.repo)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'nowhere: file: the registry folder does not exist\n',
    });
  });

  it('refuses unknown options and a bad REGISTRY_URL with exit code 2', async () => {
    const unknown = await runCheck(['--fast'], env, good.repo);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--fast'");
    expect(unknown.stderr).toContain('usage: npm run check [-- --json] [-- --strict] [-- --deep] [-- --registry <dir>]');
    expect(await runCheck([], { REGISTRY_URL: 'ftp://x.test' }, good.repo)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'check failed: REGISTRY_URL: "ftp://x.test" must use http or https\n',
    });
  });

  it('exits with the code as a process', async () => {
    const ok = await cli([], good.repo, env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^registry OK: 2 objects, 3 versions, 6 files/);
    const failed = await cli([], bad.repo, env);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n')).toEqual(badLines());
  });

  it('passes on the sample registry of the repository', async () => {
    expect(existsSync(join(repo, 'registry')), 'the sample registry (registry/) exists').toBe(true);
    const out = await runCheck([], { REGISTRY_URL: process.env.REGISTRY_URL }, repo);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^registry OK: /);
  });
});
