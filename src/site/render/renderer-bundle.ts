/**
 * The page renderer, built once per version of the site's code: `astro build` (with renderer-adapter.ts) compiles the
 * pages and the client bundle into `node_modules/.cache/aso-renderer/<digest>/`, where the digest covers everything
 * the bundle is made from (`src/`, `public/`, the Astro and TypeScript config, the lock file) and the registry URL
 * (`site`). A registry build finds it there; two builds that need the same bundle at once build it once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { App } from 'astro/app';
import { withFileLock } from '../../io/file-lock.ts';
import { listFiles } from '../../io/list-files.ts';

/** What the digest is made of, relative to the project root (folders are read whole). */
const INPUTS = ['src', 'packages/core/src', 'packages/sdk/src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

/** Written last into a finished bundle. */
const COMPLETE = 'complete';

/** Waiting for another process's build of the same bundle: a cold `astro build` on a busy machine takes minutes. */
const WAIT_MS = 10 * 60_000;

/** A built renderer. */
export interface RendererBundle {
  dir: string;
  digest: string;
  /** True when this call built it; false when it was there. */
  built: boolean;
}

/** The input files at `path` under `root` (a folder's files, or the file itself), relative to `root` with `/`. */
async function inputFiles(root: string, path: string): Promise<string[]> {
  const kind = await stat(join(root, path)).catch(() => null);
  if (!kind) return [];
  return kind.isDirectory() ? (await listFiles(join(root, path))).map((f) => `${path}/${f}`) : [path];
}

/** The digest of the site's code and the registry URL. */
export async function rendererDigest(root: string, registryUrl: string): Promise<string> {
  const files = (await Promise.all(INPUTS.map((p) => inputFiles(root, p)))).flat().sort();
  const hash = createHash('sha256').update(`aso-renderer/1\n${registryUrl}\n`);
  for (const file of files) hash.update(`${file}\n`).update(await readFile(join(root, file))).update('\n');
  return hash.digest('hex').slice(0, 32);
}

/** The folder of the renderer bundles of a project. */
export function rendererCacheDir(root: string): string {
  return join(root, 'node_modules', '.cache', 'aso-renderer');
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/**
 * The environment of the renderer's `astro build`: the caller's, without what a test runner or a dev server puts there
 * for Vite (`BASE_URL`, `MODE`, `NODE_ENV=test`...), which would leak into the bundle as `import.meta.env`.
 */
export function rendererBuildEnv(env: NodeJS.ProcessEnv, registryUrl: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!/^(BASE_URL|MODE|DEV|PROD|SSR|NODE_ENV|VITE_.*|VITEST.*)$/.test(key)) out[key] = value;
  return { ...out, NODE_ENV: 'production', REGISTRY_URL: registryUrl, ASTRO_TELEMETRY_DISABLED: '1' };
}

/** Runs `astro build` into `outDir`; throws with its output when it fails. */
function astroBuild(root: string, outDir: string, registryUrl: string): Promise<void> {
  const astro = join(dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'astro.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [astro, 'build', '--root', root, '--outDir', outDir], {
      cwd: root,
      env: rendererBuildEnv(process.env, registryUrl),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`astro build of the page renderer failed (exit ${code}):\n${output.slice(-6000)}`))));
  });
}

/** The cached renderer for the code in `root`, or null when this code has no finished build yet; and the code's digest. */
export async function cachedRenderer(root: string, registryUrl: string): Promise<{ digest: string; bundle: RendererBundle | null }> {
  const digest = await rendererDigest(root, registryUrl);
  const dir = join(rendererCacheDir(root), digest);
  return { digest, bundle: (await exists(join(dir, COMPLETE))) ? { dir, digest, built: false } : null };
}

/** The renderer for the code in `root` (whose digest is `digest`, when known), built now when no build of this code is cached. */
export async function rendererBundle(root: string, registryUrl: string, digest?: string): Promise<RendererBundle> {
  digest ??= await rendererDigest(root, registryUrl);
  const cache = rendererCacheDir(root);
  const dir = join(cache, digest);
  if (await exists(join(dir, COMPLETE))) return { dir, digest, built: false };
  await mkdir(cache, { recursive: true });
  return withFileLock(join(cache, digest), async () => {
    if (await exists(join(dir, COMPLETE))) return { dir, digest, built: false };
    const staging = `${dir}.${process.pid}.tmp`;
    await rm(staging, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
    try {
      await astroBuild(root, staging, registryUrl);
      await writeFile(join(staging, COMPLETE), `${new Date().toISOString()}\n`);
      await rename(staging, dir);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    return { dir, digest, built: true };
  }, WAIT_MS);
}

/** Astro's `App` of a built renderer. */
export async function loadRenderer(bundle: Pick<RendererBundle, 'dir'>): Promise<App> {
  const entry = (await import(pathToFileURL(join(bundle.dir, 'server', 'entry.mjs')).href)) as { app: App };
  return entry.app;
}

/** The client files of a renderer (scripts, styles, `public/`), relative to its client folder. */
export async function clientFiles(bundle: RendererBundle): Promise<Array<{ from: string; path: string }>> {
  const client = join(bundle.dir, 'client');
  return (await listFiles(client)).map((path) => ({ from: join(client, path), path }));
}
