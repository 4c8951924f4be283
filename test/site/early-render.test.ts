/**
 * A build with no last build in its output folder starts its render threads as soon as the registry's versions are
 * listed, while they are checked, and hands them the data when the check ends; gltf-validator runs on a thread of its
 * own meanwhile. The site is the one a build rendering and validating in its own thread makes, byte for byte.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { rendererBundle } from '../../src/site/renderer-bundle.ts';
import { buildSite, repoRoot } from '../support/build-site.ts';
import { registryFailingAfter } from '../support/fixture-registry.ts';
import { expectSameSite } from '../support/site-files.ts';

const STARTED = '1 render thread started while the check goes on';
/** The sample registry's glTF files, each validated once on the thread (two of its six files hold the same bytes). */
const VALIDATED = '5 glTF files validated on 1 thread of their own while the check went on';

describe('render threads started during the check', () => {
  let work: string;
  const early = (): string => join(work, 'early', 'dist');
  const here = (): string => join(work, 'here', 'dist');
  let first: { code: number; stdout: string; stderr: string };
  let again: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'aso-early-render-'));
    // The renderer is ready before the check starts (as in any build but the first after a change of the site's code).
    await rendererBundle(repoRoot, DEFAULT_REGISTRY_URL);
    first = await buildSite({ outDir: early(), env: { ASO_RENDER_THREADS: '1', ASO_VALIDATION_THREADS: '1' } });
    const inThread = await buildSite({ outDir: here(), env: { ASO_RENDER_THREADS: '0', ASO_VALIDATION_THREADS: '0' } });
    expect(inThread.stdout).not.toContain('validated on');
    expect(inThread.code, inThread.stdout + inThread.stderr).toBe(0);
    again = await buildSite({ outDir: early(), cacheDir: join(work, 'early', 'cache'), env: { ASO_RENDER_THREADS: '1' } });
  }, 600_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('start in a cold build, and the site is the one rendered and validated in the build thread, byte for byte', async () => {
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain(STARTED);
    expect(first.stdout).toContain(VALIDATED);
    const files = await expectSameSite(early(), here());
    expect(files.filter((f) => f.endsWith('index.html')).length).toBeGreaterThan(10);
  });

  it('do not start in a rebuild, which renders only what changed', () => {
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).not.toContain(STARTED);
    expect(again.stdout).toContain('0 pages rendered');
  });

  it('start once the check has listed the versions, before any checks clean, and stop when it finds a problem', { timeout: 120_000 }, async () => {
    // Its only version has a problem: the threads started on the listing, and the build ends with the problem.
    const reg = await registryFailingAfter('aso-early-broken-', 0);
    try {
      const result = await buildSite({ outDir: join(reg.parent, 'dist'), registryDir: reg.root, env: { ASO_RENDER_THREADS: '1' } });
      expect(result.stdout).toContain(STARTED);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('registry/objects/fine/versions/1.0.0/publication.json: file: is missing');
    } finally {
      await rm(reg.parent, { recursive: true, force: true });
    }
  });
});
