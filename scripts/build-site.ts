/**
 * The build itself (`npm run build` runs it through scripts/build.mjs, which bounds its heap and cleans up after a
 * failure): `[--root <project>] [--outDir <dir>]`; the registry, its URL and the cache come from the environment
 * (`ASO_REGISTRY_DIR`, `REGISTRY_URL`, `ASO_CACHE_DIR`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheDir, registryDir } from '../src/registry/registry-dir.ts';
import { registryUrl } from '../src/registry/registry-url.ts';
import { buildSite } from '../src/site/build/build-site.ts';

const { values } = parseArgs({ options: { root: { type: 'string' }, outDir: { type: 'string' } }, strict: true });
const root = resolve(values.root ?? '.');
const started = performance.now();
try {
  await buildSite({
    root,
    outDir: resolve(root, values.outDir ?? 'dist'),
    registryRoot: registryDir(),
    registryUrl: registryUrl(),
    cacheDir: cacheDir(),
    info: (line) => process.stdout.write(`${line}\n`),
    warn: (line) => process.stderr.write(`warning: ${line}\n`),
  });
  process.stdout.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
} catch (error) {
  // A problem of the registry or the environment is a sentence; a fault of the build itself also shows where it was.
  const fault = error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
  process.stderr.write(`build failed: ${fault ? (error as Error).stack : (error as Error).message}\n`);
  process.exitCode = 1;
}
