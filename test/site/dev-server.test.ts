/** `npm run dev` (astro dev) serves the sample registry from the same code: pages, and the documents the build writes itself. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererBuildEnv } from '../../src/site/render/renderer-bundle.ts';
import { repoRoot } from '../support/build-site.ts';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('astro dev', () => {
  let child: ChildProcess;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const astro = join(repoRoot, 'node_modules', 'astro', 'astro.js');
    const env = { ...rendererBuildEnv(process.env, 'https://registry.example.org'), NODE_ENV: 'development', ASO_CACHE_DIR: join(repoRoot, 'node_modules', '.cache', 'aso-dev-test') };
    child = spawn(process.execPath, [astro, 'dev', '--port', String(port), '--host', '127.0.0.1'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`astro dev did not start:\n${output}`)), 60_000);
      const seen = (d: Buffer): void => {
        output += d;
        if (output.includes(origin)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.on('exit', (code) => reject(new Error(`astro dev exited ${code}:\n${output}`)));
    });
  }, 90_000);
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('renders the catalog and a record page, serves agent.json and the API, and answers 404 for a missing path', async () => {
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect((await home.text()).includes('Oak chair')).toBe(true);
    const record = await fetch(`${origin}/objects/oak-chair/versions/1.0.0/`);
    expect(record.status).toBe(200);
    const html = await record.text();
    expect(html.includes('class="viewer-config"') && html.includes('<h2 id="record-h"')).toBe(true);
    const agent = await fetch(`${origin}/objects/oak-chair/versions/1.0.0/agent.json`);
    expect(agent.headers.get('content-type')).toContain('application/json');
    expect(((await agent.json()) as { id: string }).id).toBe('oak-chair');
    const index = (await (await fetch(`${origin}/api/v1/index.json`)).json()) as { schema: string };
    expect(index.schema).toBe('aso/api/v1/index');
    expect((await fetch(`${origin}/no/such/page`)).status).toBe(404);
  }, 60_000);
});
