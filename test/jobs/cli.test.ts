import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/jobs/service/cli.ts';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { authed, discPng, postUpload, tempDir, waitForJob } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const result = await runJobsCli(argv, { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) });
  if (typeof result !== 'number') {
    await result.close();
    return { code: 0, out, err };
  }
  return { code: result, out, err };
}

describe('npm run jobs', () => {
  it('keys create prints the key alone on its last line; list and revoke never show it', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const created = await cli('keys', 'create', '--name', 'alice', '--data', dir.path);
    expect(created.code).toBe(0);
    const key = created.out.at(-1)!;
    expect(key).toMatch(/^aso_sk_[A-Za-z0-9_-]{43}$/);
    const listed = await cli('keys', 'list', '--data', dir.path);
    expect(listed.out.join('\n')).toMatch(/key_[0-9a-f]{16}\tactive\tcreated .*\talice/);
    expect(listed.out.join('\n')).not.toContain(key);
    const { readdir, readFile } = await import('node:fs/promises');
    for (const f of await readdir(`${dir.path}/keys`)) expect(await readFile(`${dir.path}/keys/${f}`, 'utf8')).not.toContain(key);
    expect((await cli('keys', 'revoke', 'alice', '--data', dir.path)).code).toBe(0);
    expect((await cli('keys', 'list', '--data', dir.path)).out.join('\n')).toMatch(/revoked/);
    const missing = await cli('keys', 'revoke', 'bob', '--data', dir.path);
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toContain('no key has the id or name "bob"');
  });

  it('reports usage mistakes with exit code 2', async () => {
    expect((await cli('keys', 'create')).code).toBe(2);
    expect((await cli('serve', '--port', 'abc')).err.join('\n')).toContain('--port must be an integer');
    expect((await cli('serve', '--bogus')).code).toBe(2);
    expect((await cli('frobnicate')).err.join('\n')).toContain('unknown command "frobnicate"');
    expect((await cli('--help')).code).toBe(0);
  });

  it('serve: the real command answers the API, and a key made by the CLI beside it works', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', 'serve', '--port', '0', '--data', dir.path, '--concurrency', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        output += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${output}`)));
    });
    const key = (await cli('keys', 'create', '--name', 'ci', '--data', dir.path)).out.at(-1)!;
    const response = await postUpload(url, key, 'points', await discPng());
    expect(response.status).toBe(202);
    const job = await waitForJob(url, key, ((await response.json()) as JobDocument).id);
    expect(job.status).toBe('succeeded');
    expect((await fetch(job.download_url!, authed(key))).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
