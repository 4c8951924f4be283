/**
 * The SDK as an app gets it: `npm pack` of packages/sdk (its prepack builds dist/), the tarball installed alone and
 * offline into a fresh project, then used from plain Node against the built sample site, type-checked by a strict
 * `nodenext` project, and bundled by esbuild for a browser page served from the site's origin.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

interface LedgerLine {
  seq: number;
  id: string;
  version: string;
  recordHash: string;
}

let work: string;
let app: string;
let tarball: string;
let site: string;
let server: StaticServer;
/** The site's ledger, one line per published version: what the SDK's answers are compared with. */
let ledger: LedgerLine[];

beforeAll(async () => {
  site = siteDir();
  work = await mkdtemp(join(tmpdir(), 'aso-sdk-tarball-'));
  await run('npm', ['pack', '--pack-destination', work], { cwd: join(repoRoot, 'packages', 'sdk'), maxBuffer: 16 * 1024 * 1024 });
  const packed = (await readdir(work)).filter((f) => f.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  tarball = join(work, packed[0]!);
  app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), `${JSON.stringify({ name: 'sdk-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  // Offline: the package must need nothing but its own tarball.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app });
  ledger = (await readFile(join(site, 'ledger.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as LedgerLine);
  server = await serveStatic(site);
});

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function sri(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

/** The versions of each object in the ledger, sorted. */
function publishedVersions(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of ledger) (out[line.id] ??= []).push(line.version);
  for (const versions of Object.values(out)) versions.sort();
  return out;
}

describe('the SDK package', () => {
  it('holds only dist/, the README, the CHANGELOG and package.json, and installs with no dependencies', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    // The shared code and the lazily loaded manifest validator are chunks named by their content's hash.
    const chunks = files.filter((f) => f.startsWith('package/dist/chunks/'));
    expect(chunks.filter((f) => /^package\/dist\/chunks\/validate-manifest-\w+\.js$/.test(f))).toHaveLength(1);
    expect(chunks.every((f) => /^package\/dist\/chunks\/(chunk|validate-manifest)-\w+\.js$/.test(f))).toBe(true);
    expect(files.filter((f) => !f.startsWith('package/dist/chunks/'))).toEqual([
      'package/CHANGELOG.md',
      'package/README.md',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/log.d.ts',
      'package/dist/log.js',
      'package/dist/third-party-licenses.txt',
      'package/dist/verify-site.d.ts',
      'package/dist/verify-site.js',
      'package/package.json',
    ]);
    const manifest = JSON.parse(await readFile(join(app, 'node_modules', '@aso-registry', 'sdk', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: '@aso-registry/sdk', license: 'MIT', type: 'module', sideEffects: false });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.private).toBeUndefined();
    expect(await readdir(join(app, 'node_modules'))).toEqual(['.package-lock.json', '@aso-registry']);
    for (const entry of ['index', 'log', 'verify-site']) {
      const declarations = await readFile(join(app, 'node_modules', '@aso-registry', 'sdk', 'dist', `${entry}.d.ts`), 'utf8');
      expect(declarations).not.toMatch(/@aso-registry\/core|\bfrom\s*['"]/);
    }
  });

  it('runs under plain Node: lists, gets, checks the bytes and proves inclusion of every version of the site', { timeout: 120_000 }, async () => {
    await writeFile(
      join(app, 'use-sdk.mjs'),
      `import { createClient, NotFoundError } from '@aso-registry/sdk';
import { verifySite } from '@aso-registry/sdk/verify-site';
const client = createClient({ origin: process.argv[2] });
const report = { objects: [], versions: {}, got: [], missing: null, site: null };
for (const object of await client.listObjects()) {
  report.objects.push(object.id);
  report.versions[object.id] = (await client.listVersions(object.id)).map((v) => v.version).sort();
  for (const version of report.versions[object.id]) {
    const got = await client.getObject(object.id, version);
    const checks = await Promise.all(got.representations.map((r) => client.checkIntegrity(r)));
    const proof = await client.verifyInclusion(object.id, version);
    report.got.push({
      key: got.id + '@' + got.version,
      recordHash: got.publication.recordHash,
      manifest: got.manifest,
      checks: checks.map((c) => c.ok && c.complete && c.hash.actual === c.hash.expected),
      leafIndex: proof.leafIndex,
      checkpoint: [proof.checkpoint.origin, proof.checkpoint.size, proof.checkpoint.rootHash],
    });
  }
}
try {
  await client.getObject(report.objects[0], '999.0.0');
} catch (error) {
  report.missing = { notFound: error instanceof NotFoundError, code: error.code };
}
const site = await verifySite({ origin: process.argv[2], allowUnsigned: true });
report.site = { ok: site.ok, problems: site.problems, versions: site.versions };
console.log(JSON.stringify(report));
`,
    );
    const { stdout } = await run(process.execPath, ['use-sdk.mjs', server.origin], { cwd: app, maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(stdout) as {
      objects: string[];
      versions: Record<string, string[]>;
      got: Array<{ key: string; recordHash: string; manifest: unknown; checks: boolean[]; leafIndex: number; checkpoint: [string, number, string] }>;
      missing: { notFound: boolean; code: string } | null;
      site: { ok: boolean; problems: string[]; versions: number };
    };
    // The whole site, through the package's second entry.
    expect(report.site).toEqual({ ok: true, problems: [], versions: ledger.length });

    const published = publishedVersions();
    expect(report.objects.sort()).toEqual(Object.keys(published).sort());
    expect(report.versions).toEqual(published);
    const [origin, size, rootHash] = (await readFile(join(site, 'checkpoint'), 'utf8')).split('\n');
    expect(report.got).toHaveLength(ledger.length);
    for (const line of ledger) {
      const key = `${line.id}@${line.version}`;
      const got = report.got.find((g) => g.key === key);
      const bytes = await readFile(join(site, 'objects', line.id, 'versions', line.version, 'aso.object.json'));
      expect(got, key).toMatchObject({ recordHash: line.recordHash, leafIndex: line.seq - 1, checkpoint: [origin, Number(size), rootHash] });
      expect(got!.recordHash, key).toBe(sri(bytes));
      expect(got!.manifest, key).toEqual(JSON.parse(bytes.toString('utf8')));
      expect(got!.checks.length, key).toBeGreaterThan(0);
      expect(got!.checks.every(Boolean), key).toBe(true);
    }
    expect(report.missing).toEqual({ notFound: true, code: 'not_found' });
  });

  it('type-checks in a strict nodenext project, and its types catch a wrong use', { timeout: 180_000 }, async () => {
    await writeFile(
      join(app, 'use-types.ts'),
      `import { createClient, NotFoundError, type AsoClient, type IntegrityCheck, type LogVerification, type ObjectVersion } from '@aso-registry/sdk';

const client: AsoClient = createClient({ origin: 'http://127.0.0.1:4321', publisherKeys: {} });

export async function firstCheck(id: string): Promise<IntegrityCheck | undefined> {
  const version: ObjectVersion = await client.getObject(id, '^1.0.0', { ledger: 'skip', log: 'auto' });
  const rep = version.representations[0];
  return rep ? client.checkIntegrity(rep) : undefined;
}

export async function leaf(id: string): Promise<number> {
  const proof: LogVerification = await client.verifyInclusion(id);
  return proof.leafIndex + (proof.checkpoint.signedBy?.length ?? 0);
}

export function isMissing(error: unknown): boolean {
  return error instanceof NotFoundError && error.code === 'not_found';
}
`,
    );
    await writeFile(
      join(app, 'wrong-types.ts'),
      `import { createClient } from '@aso-registry/sdk';

const client = createClient({ origin: 'http://127.0.0.1:4321' });
export const count: number = await client.listObjects();
`,
    );
    const tsconfig = (file: string): string =>
      JSON.stringify({
        // The package's declarations are checked too (skipLibCheck off); TypeScript's own libraries are not.
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true },
        files: [file],
      });
    await writeFile(join(app, 'tsconfig.json'), tsconfig('use-types.ts'));
    await writeFile(join(app, 'tsconfig.wrong.json'), tsconfig('wrong-types.ts'));

    const [ok, wrong] = await Promise.all([
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
        (r) => r.stdout,
        (e: { stdout: string }) => `failed: ${e.stdout}`,
      ),
      run(process.execPath, [tsc, '-p', 'tsconfig.wrong.json'], { cwd: app }).then(
        () => 'passed',
        (e: { stdout: string }) => e.stdout,
      ),
    ]);
    expect(ok).toBe('');
    expect(wrong).toMatch(/wrong-types\.ts\(4,\d+\): error TS2322: Type '[^']*ApiObjectSummary\[\]' is not assignable to type 'number'/);
  });

  describe('bundled for a browser', () => {
    let bundle: string;
    let browser: Browser;

    beforeAll(async () => {
      await writeFile(
        join(app, 'browser-entry.js'),
        `import { createClient, NotFoundError } from '@aso-registry/sdk';
window.report = (async () => {
  const client = createClient({ origin: location.origin });
  const [object] = await client.listObjects();
  const got = await client.getObject(object.id, 'latest');
  const checks = await Promise.all(got.representations.map((r) => client.checkIntegrity(r)));
  const missing = await client.getObject(object.id, '999.0.0').catch((error) => error);
  return {
    hasProcess: typeof process !== 'undefined',
    key: got.id + '@' + got.version,
    recordHash: got.publication.recordHash,
    checks: checks.map((c) => c.ok && c.complete),
    notFound: missing instanceof NotFoundError,
  };
})().catch((error) => ({ error: String(error && error.stack || error) }));
`,
      );
      const result = await build({
        entryPoints: [join(app, 'browser-entry.js')],
        absWorkingDir: app,
        bundle: true,
        format: 'esm',
        platform: 'browser',
        minify: true,
        write: false,
        logLevel: 'silent',
      });
      bundle = result.outputFiles[0]!.text;
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('holds no Node import and no schema compiler', () => {
      // The match itself, not the whole bundle, when one is found.
      expect(/\bimport\s*\(?\s*["']node:[^"']*|\bfrom\s*["']node:[^"']*/.exec(bundle)?.[0]).toBeUndefined();
      // Ajv's compiler says "strict mode: " and builds functions from text; no code is made from text at all here.
      expect(/new Function|\beval\(|strict mode: |ajv\/dist\/compile/.exec(bundle)?.[0]).toBeUndefined();
    });

    it('runs in Chromium from the site\'s origin and verifies the latest version of an object', async () => {
      server.setOverride((pathname) => {
        if (pathname === '/__sdk-package__/index.html') {
          return { body: '<!doctype html><meta charset="utf-8"><title>SDK package</title><script type="module" src="/__sdk-package__/app.js"></script>', type: 'text/html; charset=utf-8' };
        }
        if (pathname === '/__sdk-package__/app.js') return { body: bundle, type: 'text/javascript' };
        return undefined;
      });
      const page = await browser.newPage();
      try {
        await page.goto(`${server.origin}/__sdk-package__/index.html`);
        await page.waitForFunction(() => 'report' in window);
        const report = (await page.evaluate(() => (window as unknown as { report: Promise<unknown> }).report)) as Record<string, unknown>;
        expect(report.error).toBeUndefined();
        const published = ledger.find((l) => `${l.id}@${l.version}` === report.key);
        expect(published, String(report.key)).toBeDefined();
        expect(report).toMatchObject({ hasProcess: false, recordHash: published!.recordHash, notFound: true });
        expect((report.checks as boolean[]).length).toBeGreaterThan(0);
        expect((report.checks as boolean[]).every(Boolean)).toBe(true);
      } finally {
        await page.close();
        server.setOverride(undefined);
      }
    });
  });
});
