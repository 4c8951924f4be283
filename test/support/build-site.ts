/** Builds the site with the real Astro CLI into a folder of the caller's choosing. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const require = createRequire(import.meta.url);
const astroBin = join(dirname(require.resolve('astro/package.json')), 'astro.js');

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `astro build --outDir <outDir>` with the registry folder and registry URL given. */
export function buildSite(opts: { outDir: string; registryDir?: string; registryUrl?: string; cacheDir?: string }): Promise<BuildResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  if (opts.registryDir) env.ASO_REGISTRY_DIR = opts.registryDir;
  if (opts.registryUrl) env.REGISTRY_URL = opts.registryUrl;
  if (opts.cacheDir) env.ASO_CACHE_DIR = opts.cacheDir;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [astroBin, 'build', '--outDir', opts.outDir], { cwd: repoRoot, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
