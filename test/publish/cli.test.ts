/** `npm run submit` as a process: exit codes and messages, and the fresh-clone default of the built-in job service. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { createRepo, GIT_ENV, photoPng, REGISTRY_URL, snapshot, type TestRepo } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader, as `tsx scripts/submit.ts` runs the script, without the tsx command's own parent process. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const SCRIPT = join(ROOT, 'scripts', 'submit.ts');

let repo: TestRepo;
let cache: string;

beforeAll(async () => {
  repo = await createRepo();
  cache = await mkdtemp(join(tmpdir(), 'aso-publish-cli-cache-'));
  await writeFile(repo.path('photo.png'), await photoPng());
});
afterAll(async () => {
  await repo?.remove();
  await rm(cache, { recursive: true, force: true });
});

/** Runs `tsx scripts/submit.ts ...args` in the test repository, with no job API configured. */
function submitCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...GIT_ENV, REGISTRY_URL, ASO_CACHE_DIR: cache };
  delete env.ASO_API_URL;
  delete env.ASO_API_KEY;
  delete env.ASO_REGISTRY_DIR;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, SCRIPT, ...args], { cwd: repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run submit', () => {
  it('usage mistakes exit 2 with the usage', async () => {
    const missing = await submitCli('--image', 'photo.png', '--object', 'demo');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --model is required\nusage: npm run submit -- --image <path or URL>/);
    const unknown = await submitCli('--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--frobnicate'");
    expect((await submitCli('--bump', 'huge', '--image', 'photo.png')).stderr).toContain('--bump must be patch, minor or major, not "huge"');
    const help = await submitCli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--correct <id>@<version> --reason <text>');
  });

  it('an unknown model exits 2 listing the catalog of the built-in service; the registry is untouched', async () => {
    const before = await snapshot(repo);
    const out = await submitCli('--image', 'photo.png', '--model', 'nerf', '--object', 'demo');
    expect(out.code).toBe(2);
    expect(out.stderr.split('\n')[0]).toMatch(/^error: unknown model "nerf"; the built-in job service \(http:\/\/127\.0\.0\.1:\d+\) offers: relief \(Relief: mesh, glb\), silhouette .*points \(Points: point-cloud, ply\)$/);
    expect(await snapshot(repo)).toBe(before);
  });

  it('with no API configured, the built-in service publishes an image given by URL and commits it on a new branch', async () => {
    const png = await photoPng(32, 32, '#2a7f3b');
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/garden/photo.png`;
    try {
      const out = await submitCli('--image', url, '--model', 'relief', '--object', 'demo', '--name', 'Demo', '--tags', 'demo, test');
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/^\[1\/8\] read the image http:/);
      expect(out.stdout).toContain('[2/8] submit a "relief" job to the built-in job service');
      expect(out.stdout).toMatch(/published demo@1\.0\.0 in .+\n {2}publication [0-9a-f-]{36}, record hash sha256-.+\n {2}committed [0-9a-f]{12} on branch publish\/demo\/1\.0\.0; push it and open a pull request\n$/);
      expect((await repo.git('branch', '--show-current')).trim()).toBe('publish/demo/1.0.0');
      expect((await repo.git('log', '-1', '--format=%s')).trim()).toBe('Publish demo@1.0.0');
      const check = await runCheck([], { REGISTRY_URL }, repo.dir);
      expect(check.stderr).toBe('');
      expect(check.code).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);

  it('an existing version exits 1 with one line', async () => {
    const out = await submitCli('--image', 'photo.png', '--model', 'relief', '--object', 'demo', '--version', '1.0.0');
    expect(out.code).toBe(1);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/^error: demo@1\.0\.0 exists already/);
  });
});
