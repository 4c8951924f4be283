/**
 * `npm run build` in packages/sdk (and `prepack`, before `npm pack` or `npm publish`): writes an ES module per entry,
 * dist/index.js, dist/log.js and dist/verify-site.js, with everything the SDK runs bundled in (the workspace's core, @noble/*) and
 * the code both use in one shared chunk, so that the package has no dependencies; dist/<entry>.d.ts, each entry's
 * public types in one file that imports nothing; and dist/third-party-licenses.txt, the licences of the packages
 * bundled in.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Builds the package into dist/; returns the files written, relative to it. */
async function buildPackage(): Promise<string[]> {
  const outDir = join(PACKAGE_DIR, 'dist');
  await rm(outDir, { recursive: true, force: true });
  const entries = { index: join(PACKAGE_DIR, 'src', 'index.ts'), log: join(PACKAGE_DIR, 'src', 'log.ts'), 'verify-site': join(PACKAGE_DIR, 'src', 'verify-site.ts') };
  const js = await build({
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    // One copy of the shared code, so that an error class is the same class whichever entry threw it.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    // Neither Node nor a browser: the code reaches each platform's features at run time (see sha256-node.ts).
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    metafile: true,
    logLevel: 'warning',
  });
  // Whatever esbuild left unbundled (a `node:` module, a package) would be a dependency of the package.
  const left = Object.values(js.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.external);
  if (left.length) throw new Error(`dist/: imports ${left.map((i) => `"${i.path}"`).join(', ')}; the SDK must bundle everything it runs and import nothing from Node`);

  // The plugin resolves imports itself, with these options over tsconfig.json's: core is found through its `exports`.
  const compilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  for (const [name, entry] of Object.entries(entries)) {
    const types = await rollup({ input: entry, plugins: [dts({ includeExternal: ['@aso-registry/core'], compilerOptions })] });
    await types.write({ file: join(outDir, `${name}.d.ts`), format: 'es' });
    await types.close();
    const declarations = await readFile(join(outDir, `${name}.d.ts`), 'utf8');
    const imported = /^\s*(?:import|export)\b[^;]*\bfrom\s*["']([^"']+)["']/m.exec(declarations);
    if (imported) throw new Error(`dist/${name}.d.ts: imports "${imported[1]}"; the declarations must stand alone`);
  }

  await writeFile(join(outDir, 'third-party-licenses.txt'), await licences(Object.keys(js.metafile.inputs)));
  return (await readdir(outDir, { recursive: true })).map((f) => f.split(sep).join('/')).sort();
}

/** The licence of each package under node_modules that `inputs` (esbuild's paths, relative to the working folder) come from. */
async function licences(inputs: readonly string[]): Promise<string> {
  const roots = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(sep).join('/'));
    if (m) roots.add(m[1]!);
  }
  const parts: string[] = ['The SDK bundles code of these packages, under these licences.'];
  for (const root of [...roots].sort()) {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    const file = (await readdir(root)).find((f) => /^licen[cs]e/i.test(f));
    if (!file) throw new Error(`${relative(PACKAGE_DIR, root)}: no licence file to ship with the bundled code`);
    parts.push(`${'-'.repeat(78)}\n${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n${(await readFile(join(root, file), 'utf8')).trim()}`);
  }
  return `${parts.join('\n\n')}\n`;
}

for (const file of await buildPackage()) console.log(`dist/${file}`);
