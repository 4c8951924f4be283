import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { threadModule } from '../../src/io/thread-module.ts';

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('threadModule', () => {
  it('from the sources, names the loader beside the module, and it is there for each thread the build starts', () => {
    for (const [from, name] of [
      ['site/early-copies.ts', 'copy-thread'],
      ['registry/gltf-validation-threads.ts', 'gltf-validation-thread'],
    ] as const) {
      const url = threadModule(pathToFileURL(join(SRC, from)).href, name);
      expect(fileURLToPath(url)).toBe(join(SRC, from, '..', `${name}-source.mjs`));
      expect(existsSync(url)).toBe(true);
    }
  });

  it('from the bundle, names the bundled entry beside it', () => {
    expect(threadModule('file:///x/bundle/build-site.mjs', 'copy-thread').href).toBe('file:///x/bundle/copy-thread-entry.mjs');
  });
});
