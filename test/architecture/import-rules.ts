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

const CORE_PACKAGES = ['ajv', 'ajv-formats', 'semver', '@noble/hashes', '@noble/ed25519', 'spdx-license-ids'];

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
  'site/components': { folders: ['core', 'viewer', 'site/data', 'site/search', 'site/build', 'site/layouts'], packages: '*' },
  'site/layouts': { folders: ['core', 'viewer', 'site/components'], packages: '*' },
  pages: { folders: ['core', 'registry', 'site'], packages: '*' },
  jobs: { folders: ['core', 'io'], packages: '*' },
  sdk: { folders: ['core'], packages: ['semver'] },
  viewer: { folders: ['core'], packages: ['@google/model-viewer', 'gltf-validator', 'hash-wasm', 'three'] },
  bench: { folders: ['core', 'io', 'registry', 'publish', 'site', 'jobs', 'sdk', 'viewer'], packages: '*' },
  mcp: { folders: ['core', 'io', 'sdk'], packages: '*' },
};

/** One import of one file. */
export interface SourceImport {
  /** The importing file, relative to `src/`, with `/` separators. */
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
    if (specifier.startsWith('.')) {
      if (!specifier.endsWith('.ts') && !specifier.endsWith('.astro') && !specifier.endsWith('.json') && !specifier.endsWith('.mjs') && !specifier.endsWith('.js')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (target.startsWith('../')) {
        out.push(`${file}: imports "${specifier}" (outside src/)`);
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

/** Every import of every source file under `srcDir`. */
export async function sourceImports(srcDir: string): Promise<SourceImport[]> {
  const out: SourceImport[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|mts|mjs|js|astro)$/.test(entry.name)) {
        const file = relative(srcDir, path).split(sep).join('/');
        for (const specifier of importsOf(await readFile(path, 'utf8'))) out.push({ file, specifier });
      }
    }
  };
  await walk(srcDir);
  return out;
}
