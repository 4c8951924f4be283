import { resolve } from 'node:path';

/** The `registry/` folder the build and the check read: `ASO_REGISTRY_DIR`, else `./registry`. */
export function registryDir(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.ASO_REGISTRY_DIR?.trim() || 'registry');
}

/** The folder for caches that may be deleted at any time. */
export function cacheDir(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.ASO_CACHE_DIR?.trim() || 'node_modules/.cache/aso-registry');
}
