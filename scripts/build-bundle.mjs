// The build's own code (scripts/build-site.ts and what it imports from src/) and its thread modules, bundled by esbuild
// once per version of that code, so that `npm run build` starts without a TypeScript loader (see docs/build.md).
// Plain JavaScript, like scripts/build.mjs.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';

/** What the bundle is made from, relative to the project: a change to any of these makes another bundle. */
const INPUTS = ['src', 'packages/core/src', 'packages/sdk/src', 'scripts/build-site.ts', 'package-lock.json', 'tsconfig.json'];

/** The thread modules the build starts (src/io/worker-pool.ts finds each as `<name>.mjs` beside the bundle's entry). */
const THREAD_MODULES = ['src/registry/gltf-validation-thread.ts', 'src/site/render/render-thread.ts'];

/** esbuild: every package is external except the workspace's own (`@aso-registry/*`). */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@aso-registry/') ? undefined : { path: args.path, external: true }));
  },
};

/** The files under `path` (a folder, recursively, or a file), with their size and modification time. */
function stamps(root, path) {
  const full = join(root, path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [`${path}\u0000${stat.size}\u0000${stat.mtimeMs}`];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = join(e.parentPath, e.name);
      const s = statSync(file);
      return `${relative(root, file)}\u0000${s.size}\u0000${s.mtimeMs}`;
    });
}

/**
 * The key of the build's code in `root`: every input file's path, size and modification time. Reading them all would
 * cost each build as much as the bundle saves; a checkout or an edit changes a file's modification time.
 */
export function buildCodeKey(root) {
  const hash = createHash('sha256').update('aso-build-bundle/1\n');
  for (const stamp of INPUTS.flatMap((p) => stamps(root, p)).sort()) hash.update(`${stamp}\n`);
  return hash.digest('hex').slice(0, 32);
}

/** The folder of the build bundles of a project. */
export function buildBundleDir(root) {
  return join(root, 'node_modules', '.cache', 'aso-build');
}

/**
 * The bundle of the build's code in `root` (its entry's path), made now when this version of the code has none. Made
 * in a folder of its own and renamed into place, so that builds running at once never see half a bundle.
 */
export async function buildBundle(root) {
  const dir = join(buildBundleDir(root), buildCodeKey(root));
  const entry = join(dir, 'build-site.mjs');
  if (existsSync(entry)) return entry;
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const { build } = await import('esbuild');
    await build({
      entryPoints: [join(root, 'scripts', 'build-site.ts'), ...THREAD_MODULES.map((file) => join(root, ...file.split('/')))],
      outdir: staging,
      entryNames: '[name]',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Packages are loaded from node_modules as they are (sharp and Pagefind find their binaries there); the
      // workspace's own packages are TypeScript sources, bundled like src/.
      plugins: [externalPackages],
      sourcemap: 'linked',
      logLevel: 'silent',
    });
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another build made the same bundle meanwhile: theirs is as good.
      if (!existsSync(entry)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}
