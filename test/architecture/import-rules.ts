/** The import rules of ARCHITECTURE.md as data, and the scanner that finds every import that breaks them. */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/** What one top folder of `src/` may import. */
export interface FolderRule {
  /** Other top folders of `src/` it may import (its own is always allowed). */
  folders: readonly string[];
  /** Packages it may import; `'*'` for any. `node:` modules count as packages named `node:*`. */
  packages: readonly string[] | '*';
}

/** The map of ARCHITECTURE.md. */
export const RULES: Readonly<Record<string, FolderRule>> = {
  core: { folders: [], packages: ['ajv', 'ajv-formats', 'semver', '@noble/hashes', '@noble/ed25519', 'spdx-license-ids'] },
  io: { folders: ['core'], packages: '*' },
  registry: { folders: ['core', 'io'], packages: '*' },
  publish: { folders: ['core', 'io', 'registry', 'jobs'], packages: '*' },
  site: { folders: ['core', 'io', 'registry', 'viewer'], packages: '*' },
  pages: { folders: ['core', 'registry', 'site'], packages: '*' },
  jobs: { folders: ['core', 'io'], packages: '*' },
  sdk: { folders: ['core'], packages: ['semver'] },
  viewer: { folders: ['core'], packages: ['@google/model-viewer', 'gltf-validator', 'hash-wasm', 'three'] },
  bench: { folders: ['core', 'io', 'registry', 'publish', 'site', 'jobs', 'sdk', 'viewer'], packages: '*' },
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
export function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:*';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Each import that breaks the rules, as `<file>: imports "<specifier>" (<why>)`. */
export function violations(imports: readonly SourceImport[], rules: Readonly<Record<string, FolderRule>> = RULES): string[] {
  const out: string[] = [];
  for (const { file, specifier } of imports) {
    const folder = file.split('/')[0]!;
    const rule = rules[folder];
    if (!rule) continue;
    if (specifier.startsWith('.')) {
      if (!specifier.endsWith('.ts') && !specifier.endsWith('.astro') && !specifier.endsWith('.json') && !specifier.endsWith('.mjs') && !specifier.endsWith('.js')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (target.startsWith('../')) {
        out.push(`${file}: imports "${specifier}" (outside src/)`);
        continue;
      }
      const to = target.split('/')[0]!;
      if (to !== folder && !rule.folders.includes(to)) out.push(`${file}: imports "${specifier}" (${folder}/ may not import ${to}/)`);
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
