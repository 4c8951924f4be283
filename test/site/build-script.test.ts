/** `npm run build`'s entry (scripts/build.mjs): every other site test builds through it; here, its own refusals. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/build-site.ts';

it('refuses a heap size that is not a whole number of MiB, before starting Astro', () => {
  for (const value of ['abc', '64', '1.5']) {
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { env: { ...process.env, ASO_BUILD_HEAP_MB: value }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${value}")\n`);
  }
});
