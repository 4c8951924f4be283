/** `npm run build`'s entry (scripts/build.mjs): every other site test builds through it; here, its own refusals. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildSite, repoRoot } from '../support/build-site.ts';

it('refuses a heap size that is not a whole number of MiB, before starting Astro', () => {
  for (const value of ['abc', '64', '1.5']) {
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { env: { ...process.env, ASO_BUILD_HEAP_MB: value }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${value}")\n`);
  }
});

it('says how to raise the heap when the build runs out of it', async () => {
  const work = await mkdtemp(join(tmpdir(), 'aso-heap-'));
  try {
    const result = await buildSite({ outDir: join(work, 'dist'), env: { ASO_BUILD_HEAP_MB: '128' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the build ran out of its 128 MiB heap; a larger registry needs more: ASO_BUILD_HEAP_MB=256 npm run build\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
