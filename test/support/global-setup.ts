/** Builds the sample registry's site once for every test file that reads `inject('siteDir')`. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite } from './build-site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    siteBuildError: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.ASO_SKIP_SITE_BUILD === '1') {
    project.provide('siteDir', '');
    project.provide('siteBuildError', 'the sample site was not built (ASO_SKIP_SITE_BUILD=1)');
    return async () => {};
  }
  const work = await mkdtemp(join(tmpdir(), 'aso-test-site-'));
  const outDir = join(work, 'dist');
  const result = await buildSite({ outDir, cacheDir: join(work, 'cache') });
  project.provide('siteDir', outDir);
  project.provide('siteBuildError', result.code === 0 ? '' : `astro build exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return () => rm(work, { recursive: true, force: true });
}
