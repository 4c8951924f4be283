/** The import rules of ARCHITECTURE.md as data, and the scanner that finds every import that breaks them. */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/** What one folder of `src/` may import (a top folder, or one of its subfolders with rules of its own). */
export interface FolderRule {
  /** Other folders of `src/` it may import, each with its subfolders (its own is always allowed). */
  folders: readonly string[];
  /** Packages it may import; `'*'` for any. `node:` modules count as packages named `node:*`. */
  packages: readonly string[] | '*';
}

const CORE_PACKAGES = ['@noble/hashes', '@noble/ed25519', 'spdx-license-ids'];

/** The map of ARCHITECTURE.md. */
export const RULES: Readonly<Record<string, FolderRule>> = {
  core: { folders: [], packages: CORE_PACKAGES },
  'core/format': { folders: [], packages: CORE_PACKAGES },
  'core/log': { folders: ['core/format'], packages: CORE_PACKAGES },
  'core/documents': { folders: ['core/format', 'core/log'], packages: CORE_PACKAGES },
  io: { folders: ['core'], packages: '*' },
  registry: { folders: ['core', 'io'], packages: '*' },
  publish: { folders: ['core', 'io', 'registry', 'jobs'], packages: '*' },
  site: { folders: ['core', 'io', 'registry', 'viewer'], packages: '*' },
  'site/output': { folders: ['io'], packages: '*' },
  'site/data': { folders: ['core', 'io', 'registry', 'site/search'], packages: '*' },
  'site/search': { folders: ['io', 'site/data', 'site/output'], packages: '*' },
  'site/render': { folders: ['core', 'io', 'site/data', 'site/output'], packages: '*' },
  'site/build': { folders: ['core', 'io', 'registry', 'site/data', 'site/render', 'site/search', 'site/output'], packages: '*' },
  'site/serve': { folders: ['core'], packages: '*' },
  'site/compare': { folders: ['core', 'viewer'], packages: '*' },
  'site/components': { folders: ['core', 'viewer', 'site/data', 'site/search', 'site/build', 'site/compare', 'site/layouts'], packages: '*' },
  'site/layouts': { folders: ['core', 'viewer', 'site/components'], packages: '*' },
  pages: { folders: ['core', 'registry', 'site'], packages: '*' },
  jobs: { folders: ['core', 'io'], packages: '*' },
  sdk: { folders: ['core'], packages: [] },
  viewer: { folders: ['core', 'sdk'], packages: ['@google/model-viewer', 'gltf-validator', 'hash-wasm', 'three'] },
  bench: { folders: ['core', 'io', 'registry', 'publish', 'site', 'jobs', 'sdk', 'viewer'], packages: '*' },
  mcp: { folders: ['core', 'io', 'sdk'], packages: '*' },
};

/** Where each folder of the map lives: the workspace packages `core/` and `sdk/`, and `src/` for the rest. */
export const SOURCE_ROOTS: Readonly<Record<string, string>> = { '': 'src', core: 'packages/core/src', sdk: 'packages/sdk/src' };

/** The folder of the map a workspace package's specifier names (`@aso-registry/core/log/ledger` is `core/log/ledger.ts`), or undefined. */
function workspaceTarget(specifier: string): string | undefined {
  if (specifier === '@aso-registry/sdk') return 'sdk/index.ts';
  const entry = /^@aso-registry\/sdk\/([\w-]+)$/.exec(specifier);
  if (entry) return `sdk/${entry[1]}.ts`;
  const core = /^@aso-registry\/core\/(.+)$/.exec(specifier);
  if (core) return core[1]!.endsWith('.json') ? `core/${core[1]}` : `core/${core[1]}.ts`;
  return undefined;
}

/** One import of one file. */
export interface SourceImport {
  /** The importing file in the map (`core/...` and `sdk/...` for the packages, else relative to `src/`), with `/` separators. */
  file: string;
  specifier: string;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*)(['"])([^'"\n]+)\1/g;

/** Every module specifier a source text names: static and dynamic imports, re-exports, and `new URL(...)` workers. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push(m[2]!);
  return out;
}

/** The package a bare specifier names (`@scope/name` or `name`), or `node:*` for Node's built-ins. */
function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:*';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The folder whose rule covers `path` (relative to `src/`): the longest folder with a rule that holds it, else its top folder. */
function ruleFolder(path: string, rules: Readonly<Record<string, FolderRule>> = RULES): string {
  const holding = Object.keys(rules).filter((folder) => path.startsWith(`${folder}/`));
  return holding.sort((a, b) => b.length - a.length)[0] ?? path.split('/')[0]!;
}

/** Whether `to` is one of `allowed`, or inside one. */
const within = (to: string, allowed: readonly string[]): boolean => allowed.some((f) => to === f || to.startsWith(`${f}/`));

/** Each import that breaks the rules, as `<file>: imports "<specifier>" (<why>)`. */
export function violations(imports: readonly SourceImport[], rules: Readonly<Record<string, FolderRule>> = RULES): string[] {
  const out: string[] = [];
  for (const { file, specifier } of imports) {
    const folder = ruleFolder(file, rules);
    const rule = rules[folder];
    if (!rule) continue;
    const workspace = workspaceTarget(specifier);
    if (specifier.startsWith('.') || workspace !== undefined) {
      if (workspace === undefined && !/\.(ts|astro|json|mjs|js)$/.test(specifier)) continue;
      const target = workspace ?? posix.normalize(posix.join(posix.dirname(file), specifier));
      const own = file.split('/')[0]!;
      if (workspace === undefined && own in SOURCE_ROOTS && !target.startsWith(`${own}/`)) {
        out.push(`${file}: imports "${specifier}" (outside its package; another package is imported by its name)`);
        continue;
      }
      if (target.startsWith('../')) {
        out.push(`${file}: imports "${specifier}" (outside src/)`);
        continue;
      }
      if (workspace === undefined && (target.startsWith('core/') || target.startsWith('sdk/')) && !(own in SOURCE_ROOTS)) {
        out.push(`${file}: imports "${specifier}" (a package's file by path; import it by its name)`);
        continue;
      }
      const to = ruleFolder(target, rules);
      if (to !== folder && !within(to, rule.folders)) out.push(`${file}: imports "${specifier}" (${folder}/ may not import ${to}/)`);
      continue;
    }
    if (specifier.startsWith('astro:')) {
      if (rule.packages !== '*') out.push(`${file}: imports "${specifier}" (${folder}/ may not import Astro)`);
      continue;
    }
    if (/^[a-z]+:\/\//.test(specifier)) continue;
    const pkg = packageOf(specifier);
    if (rule.packages !== '*' && !rule.packages.includes(pkg)) {
      out.push(`${file}: imports "${specifier}" (${folder}/ may use only ${rule.packages.join(', ') || 'no package'}${pkg === 'node:*' ? '; it must run without Node' : ''})`);
    }
  }
  return out;
}

/** Every import of every source file of the map, the workspace packages' sources included (see SOURCE_ROOTS). */
export async function sourceImports(repoRoot: string): Promise<SourceImport[]> {
  const out: SourceImport[] = [];
  const walk = async (prefix: string, srcDir: string, dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(prefix, srcDir, path);
      else if (/\.(ts|mts|mjs|js|astro)$/.test(entry.name)) {
        const file = posix.join(prefix, relative(srcDir, path).split(sep).join('/'));
        for (const specifier of importsOf(await readFile(path, 'utf8'))) out.push({ file, specifier });
      }
    }
  };
  for (const [prefix, dir] of Object.entries(SOURCE_ROOTS)) await walk(prefix, join(repoRoot, dir), join(repoRoot, dir));
  return out;
}
