/** Builds the site as `npm run build` does (the real Astro CLI) into a folder of the caller's choosing. */
import { spawn } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `npm run build`'s own entry: astro build with the project's heap bound. */
const buildScript = join(repoRoot, 'scripts', 'build.mjs');

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run build -- --root <repo> --outDir <outDir>` with the registry folder and registry URL given. The build runs
 * in the folder that holds `outDir`: Astro keeps its intermediate files inside the output folder only
 * when that is under the working directory, so builds of several tests never share them. A folder outside
 * the project gets a link to the project's node_modules, so that the bundled pages find their packages.
 */
export async function buildSite(opts: { outDir: string; registryDir?: string; registryUrl?: string; cacheDir?: string; env?: Record<string, string> }): Promise<BuildResult> {
  const work = dirname(opts.outDir);
  const fromRepo = relative(repoRoot, work);
  if (fromRepo.startsWith('..') || isAbsolute(fromRepo)) {
    await symlink(join(repoRoot, 'node_modules'), join(work, 'node_modules'), 'dir').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
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
