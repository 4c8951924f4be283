/** Builds the site as `npm run build` does (its own entry, the real page renderer) into a folder of the caller's choosing. */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `npm run build`'s own entry: the build with the project's heap bound. */
const buildScript = join(repoRoot, 'scripts', 'build.mjs');

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run build -- --root <repo> --outDir <outDir>` with the registry folder and registry URL given, from the
 * folder that holds `outDir` (so that a relative path in the build would show), with a cache of its own beside it.
 */
export async function buildSite(opts: { outDir: string; registryDir?: string; registryUrl?: string; cacheDir?: string; env?: Record<string, string> }): Promise<BuildResult> {
  const work = dirname(opts.outDir);
  await mkdir(work, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...opts.env };
  env.ASO_REGISTRY_DIR = opts.registryDir ?? join(repoRoot, 'registry');
  if (opts.registryUrl) env.REGISTRY_URL = opts.registryUrl;
  env.ASO_CACHE_DIR = opts.cacheDir ?? join(work, 'cache');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [buildScript, '--root', repoRoot, '--outDir', opts.outDir], {
      cwd: work,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
