/** Once per test run: unpacks the browser, builds the sample registry's site for the files that read `inject('siteDir')`, and starts one Postgres server for the job service tests (`inject('postgresUrl')`). */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/jobs/store/embedded-postgres.ts';
import { executablePath } from './browser.ts';
import { buildSite } from './build-site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    siteBuildError: string;
    /** The admin database of the test server: each test makes a fresh database beside it (see `test/support/postgres.ts`). */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The browser binary is unpacked (when it is not the system's) before test files launch it side by side.
  await executablePath();
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.server.urlOf('postgres'));
  const stopPostgres = async (): Promise<void> => {
    await postgres.server.stop();
    await rm(postgres.work, { recursive: true, force: true });
  };
  if (process.env.ASO_SKIP_SITE_BUILD === '1') {
    project.provide('siteDir', '');
    project.provide('siteBuildError', 'the sample site was not built (ASO_SKIP_SITE_BUILD=1)');
    return stopPostgres;
  }
  const work = await mkdtemp(join(tmpdir(), 'aso-test-site-'));
  const outDir = join(work, 'dist');
  // Through a render thread, as a large registry is built: the sample registry alone has too few pages for one (the
  // other tests' builds render in the build's thread, see ITEMS_FOR_THREADS in src/io/worker-pool.ts).
  const result = await buildSite({ outDir, cacheDir: join(work, 'cache'), env: { ASO_RENDER_THREADS: '1' } });
  project.provide('siteDir', outDir);
  project.provide('siteBuildError', result.code === 0 ? '' : `astro build exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return async () => {
    await stopPostgres();
    await rm(work, { recursive: true, force: true });
  };
}

/** The embedded Postgres of the run, in a temporary folder its server user can enter. */
async function startPostgres(): Promise<{ server: EmbeddedPostgres; work: string }> {
  const work = await mkdtemp(join(tmpdir(), 'aso-test-postgres-'));
  await chmod(work, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: join(work, 'data'), database: 'postgres' });
  return { server, work };
}
