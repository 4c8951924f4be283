/** ARCHITECTURE.md's map, enforced: every import of every file under src/ is one its folder may make. */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build-site.ts';
import { importsOf, RULES, SOURCE_ROOTS, sourceImports, violations } from './import-rules.ts';

describe('import boundaries', () => {
  it('no file under src/ or packages/ makes an import its folder may not make', async () => {
    const imports = await sourceImports(repoRoot);
    expect(imports.length).toBeGreaterThan(500);
    expect(violations(imports)).toEqual([]);
  });

  it('mcp/ reaches the SDK only through its package name, and no other folder imports mcp/', async () => {
    // Where a relative import leads, in the map; '' for a package.
    const resolved = (await sourceImports(repoRoot)).map((i) => ({ ...i, to: i.specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(i.file), i.specifier)) : '' }));
    const intoSdk = resolved.filter((i) => i.file.startsWith('mcp/') && i.specifier.startsWith('@aso-registry/sdk'));
    expect(intoSdk.length).toBeGreaterThan(0);
    expect(intoSdk.filter((i) => i.specifier !== '@aso-registry/sdk').map((i) => `${i.file}: ${i.specifier}`)).toEqual([]);
    expect(resolved.filter((i) => !i.file.startsWith('mcp/') && i.to.startsWith('mcp/')).map((i) => `${i.file}: ${i.specifier}`)).toEqual([]);
  });

  it('every top folder of src/ and every subfolder of core/ and site/ has a rule, and ARCHITECTURE.md describes each one', async () => {
    const files: string[] = [];
    for (const [prefix, dir] of Object.entries(SOURCE_ROOTS)) {
      const root = join(repoRoot, dir);
      for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
        if (e.isFile()) files.push(posix.join(prefix, relative(root, join(e.parentPath, e.name)).split(sep).join('/')));
      }
    }
    const top = files.map((f) => f.split('/')[0]!).filter((f) => !f.includes('.'));
    const split = files.filter((f) => /^(core|site)\/[^/]+\//.test(f)).map((f) => f.split('/').slice(0, 2).join('/'));
    expect([...new Set([...top, ...split])].sort()).toEqual(Object.keys(RULES).sort());
    const map = await readFile(join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
    for (const folder of Object.keys(RULES)) expect(map).toContain(`\`${folder}/\``);
  });

  it('finds the imports a source text makes: static, type-only, dynamic, re-exports and workers', () => {
    const text = [
      "import a from 'p-limit';",
      "import type { B } from '../core/types.ts';",
      "export { c } from './c.ts';",
      "const d = await import('sharp');",
      "import './side-effect.ts';",
      "new Worker(new URL('./worker.ts', import.meta.url));",
    ].join('\n');
    expect(importsOf(text)).toEqual(['p-limit', '../core/types.ts', './c.ts', 'sharp', './side-effect.ts', './worker.ts']);
  });

  it('refuses node: and unlisted packages in core, sdk and viewer, and an import across a forbidden folder line', () => {
    expect(
      violations([
        { file: 'core/format/paths.ts', specifier: 'node:path' },
        { file: 'core/format/paths.ts', specifier: '../../registry/load-registry.ts' },
        { file: 'core/format/paths.ts', specifier: '../log/ledger.ts' },
        { file: 'core/log/ledger.ts', specifier: '../format/paths.ts' },
        { file: 'core/log/ledger.ts', specifier: '../documents/feeds.ts' },
        { file: 'site/output/output-writer.ts', specifier: '../render/page-paths.ts' },
        { file: 'site/build/build-site.ts', specifier: '../render/render-pool.ts' },
        { file: 'sdk/client.ts', specifier: 'sharp' },
        { file: 'viewer/island.ts', specifier: '../io/hash-file.ts' },
        { file: 'jobs/service/server.ts', specifier: '../../publish/submit.ts' },
        { file: 'registry/check-version.ts', specifier: '../site/thumbnails.ts' },
        { file: 'core/format/types.ts', specifier: './sri.ts' },
        { file: 'viewer/present.ts', specifier: '@google/model-viewer' },
        { file: 'publish/submit.ts', specifier: '../jobs/client/job-client.ts' },
        { file: 'registry/check-version.ts', specifier: '@aso-registry/core/format/paths' },
        { file: 'core/log/ledger.ts', specifier: '@aso-registry/sdk' },
        { file: 'site/build/build-site.ts', specifier: '../../../packages/core/src/format/paths.ts' },
        { file: 'sdk/client.ts', specifier: '../../../src/io/hash-file.ts' },
      ]),
    ).toEqual([
      'core/format/paths.ts: imports "node:path" (core/format/ may use only @noble/hashes, @noble/ed25519, spdx-license-ids; it must run without Node)',
      'core/format/paths.ts: imports "../../registry/load-registry.ts" (outside its package; another package is imported by its name)',
      'core/format/paths.ts: imports "../log/ledger.ts" (core/format/ may not import core/log/)',
      'core/log/ledger.ts: imports "../documents/feeds.ts" (core/log/ may not import core/documents/)',
      'site/output/output-writer.ts: imports "../render/page-paths.ts" (site/output/ may not import site/render/)',
      'sdk/client.ts: imports "sharp" (sdk/ may use only no package)',
      'viewer/island.ts: imports "../io/hash-file.ts" (viewer/ may not import io/)',
      'jobs/service/server.ts: imports "../../publish/submit.ts" (jobs/ may not import publish/)',
      'registry/check-version.ts: imports "../site/thumbnails.ts" (registry/ may not import site/)',
      'core/log/ledger.ts: imports "@aso-registry/sdk" (core/log/ may not import sdk/)',
      'site/build/build-site.ts: imports "../../../packages/core/src/format/paths.ts" (outside src/)',
      'sdk/client.ts: imports "../../../src/io/hash-file.ts" (outside its package; another package is imported by its name)',
    ]);
  });
});
