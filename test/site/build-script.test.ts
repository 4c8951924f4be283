/** `npm run build`'s entry (scripts/build.mjs): every other site test builds through it; here, its own refusals. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildSite, repoRoot } from '../support/build-site.ts';
import { pngBytes, writeVersion } from '../support/fixture-registry.ts';

it('refuses a heap size that is not a whole number of MiB, before starting Astro', () => {
  for (const value of ['abc', '64', '1.5']) {
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { env: { ...process.env, ASO_BUILD_HEAP_MB: value }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${value}")\n`);
  }
});

it('says how to raise the heap when the build runs out of it', { timeout: 120_000 }, async () => {
  const work = await mkdtemp(join(tmpdir(), 'aso-heap-'));
  try {
    // The sample registry fits in 128 MiB; forty versions with descriptions of 3.5 million characters do not.
    const registryDir = join(work, 'registry');
    const description = 'A very long description. '.repeat(140_000);
    const files = [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() }];
    for (let i = 0; i < 40; i++) await writeVersion(registryDir, { id: `long-${i}`, version: '1.0.0', description, files });
    const result = await buildSite({ outDir: join(work, 'dist'), registryDir, env: { ASO_BUILD_HEAP_MB: '128' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the build ran out of its 128 MiB heap; a larger registry needs more: ASO_BUILD_HEAP_MB=256 npm run build\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

it('refuses a thread count that is not a whole number before it reads the registry or writes anything', { timeout: 120_000 }, async () => {
  const work = await mkdtemp(join(tmpdir(), 'aso-threads-'));
  try {
    for (const variable of ['ASO_RENDER_THREADS', 'ASO_VALIDATION_THREADS']) {
      const outDir = join(work, variable, 'dist');
      const result = await buildSite({ outDir, registryDir: join(work, 'no-registry'), env: { [variable]: 'many' } });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`build failed: ${variable} must be a whole number of threads, 0 to do the work on the calling thread (not "many")\n`);
      expect(existsSync(outDir)).toBe(false);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
