/** `tsc -p tsconfig.sdk.json` emits JavaScript and declarations that plain Node (no tsx) can import and run. */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build-site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { writeFixtureSite, type FixtureSite } from './support/fixture-site.ts';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let work: string;
let site: FixtureSite;
let server: StaticServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-sdk-emit-'));
  // Bare imports (semver, ajv) of the emitted files resolve through the project's node_modules.
  await symlink(join(repoRoot, 'node_modules'), join(work, 'node_modules'), 'dir');
  site = await writeFixtureSite();
  server = await serveStatic(site.dir);
});

afterAll(async () => {
  await server?.close();
  await site?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split('\\').join('/'));
}

describe('the SDK package build', () => {
  it('emits .js and .d.ts, imports nothing from node:, and runs under plain Node', async () => {
    const out = join(work, 'out');
    await run(process.execPath, [tsc, '-p', join(repoRoot, 'tsconfig.sdk.json'), '--outDir', out], { cwd: repoRoot });
    const emitted = await files(out);
    expect(emitted).toContain('sdk/index.js');
    expect(emitted).toContain('sdk/index.d.ts');
    expect(emitted).toContain('core/format/schema/aso-object-v0.1.schema.json');
    expect(await readFile(join(out, 'sdk/index.d.ts'), 'utf8')).toContain('createClient');
    for (const file of emitted.filter((f) => f.endsWith('.js'))) {
      expect(await readFile(join(out, file), 'utf8'), file).not.toMatch(/from ['"]node:|import\(['"]node:|require\(/);
    }

    const script = join(work, 'use-sdk.mjs');
    await writeFile(
      script,
      `import { createClient, NotFoundError } from './out/sdk/index.js';
const client = createClient({ origin: process.argv[2] });
const chair = await client.getObject('chair', '^1.0.0');
const checks = await Promise.all(chair.representations.map((r) => client.checkIntegrity(r)));
const missing = await client.getObject('chair', '7.0.0').catch((e) => e instanceof NotFoundError);
console.log(JSON.stringify({ version: chair.version, ok: checks.map((c) => c.ok), missing }));
`,
    );
    const { stdout } = await run(process.execPath, [script, server.origin], { cwd: work });
    expect(JSON.parse(stdout)).toEqual({ version: '1.2.0+build.7', ok: [true, true], missing: true });
  });
});
