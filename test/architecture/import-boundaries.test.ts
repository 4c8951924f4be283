/** ARCHITECTURE.md's map, enforced: every import of every file under src/ is one its folder may make. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build-site.ts';
import { importsOf, RULES, sourceImports, violations } from './import-rules.ts';

const SRC = join(repoRoot, 'src');

describe('import boundaries', () => {
  it('no file under src/ makes an import its folder may not make', async () => {
    const imports = await sourceImports(SRC);
    expect(imports.length).toBeGreaterThan(500);
    expect(violations(imports)).toEqual([]);
  });

  it('every top folder of src/ has a rule, and ARCHITECTURE.md describes each one', async () => {
    const folders = new Set((await sourceImports(SRC)).map((i) => i.file.split('/')[0]!).filter((f) => !f.includes('.')));
    expect([...folders].sort()).toEqual(Object.keys(RULES).sort());
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
        { file: 'core/paths.ts', specifier: 'node:path' },
        { file: 'core/paths.ts', specifier: '../registry/load-registry.ts' },
        { file: 'sdk/client.ts', specifier: 'sharp' },
        { file: 'viewer/island.ts', specifier: '../io/hash-file.ts' },
        { file: 'jobs/service/server.ts', specifier: '../../publish/submit.ts' },
        { file: 'registry/check-version.ts', specifier: '../site/thumbnails.ts' },
        { file: 'core/types.ts', specifier: './sri.ts' },
        { file: 'viewer/present.ts', specifier: '@google/model-viewer' },
        { file: 'publish/submit.ts', specifier: '../jobs/client/job-client.ts' },
      ]),
    ).toEqual([
      'core/paths.ts: imports "node:path" (core/ may use only ajv, ajv-formats, semver, @noble/hashes, @noble/ed25519, spdx-license-ids; it must run without Node)',
      'core/paths.ts: imports "../registry/load-registry.ts" (core/ may not import registry/)',
      'sdk/client.ts: imports "sharp" (sdk/ may use only semver)',
      'viewer/island.ts: imports "../io/hash-file.ts" (viewer/ may not import io/)',
      'jobs/service/server.ts: imports "../../publish/submit.ts" (jobs/ may not import publish/)',
      'registry/check-version.ts: imports "../site/thumbnails.ts" (registry/ may not import site/)',
    ]);
  });
});
