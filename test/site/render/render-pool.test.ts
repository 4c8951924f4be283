/** Rendering on worker threads gives the pages rendering in the build's own thread gives, and says when it cannot. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_URL } from '../../../src/registry/registry-url.ts';
import { NOT_FOUND_PAGE } from '../../../src/site/data/page-paths.ts';
import { appRenderer, type PageRenderer } from '../../../src/site/render/page-renderer.ts';
import { pagePaths } from '../../../src/site/data/page-paths.ts';
import { renderPool } from '../../../src/site/render/render-pool.ts';
import { loadRenderer, rendererBundle, type RendererBundle } from '../../../src/site/render/renderer-bundle.ts';
import { provideSiteData } from '../../../src/site/data/site-data.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { repoRoot } from '../../support/build-site.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let data: SiteData;
let bundle: RendererBundle;
let here: PageRenderer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-render-pool-'));
  data = await loadSampleSite(join(work, 'cache'));
  provideSiteData(data);
  bundle = await rendererBundle(repoRoot, DEFAULT_REGISTRY_URL);
  here = appRenderer(await loadRenderer(bundle), DEFAULT_REGISTRY_URL);
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('renderPool', () => {
  it('renders every page of the sample site as the build thread does, the log proofs included', async () => {
    const pool = renderPool(data, { bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 2 });
    try {
      const paths = pagePaths(data);
      expect(paths.length).toBeGreaterThan(10);
      const [there, local] = await Promise.all([Promise.all(paths.map((p) => pool.render(p))), Promise.all(paths.map((p) => here.render(p)))]);
      expect(there).toEqual(local);
      expect(there[paths.indexOf(NOT_FOUND_PAGE)]!.status).toBe(404);
      // A record page carries its version's inclusion proof, which the thread computed from its own copy of the log.
      const record = paths.findIndex((p) => /^objects\/[^/]+\/versions\/[^/]+\/$/.test(p));
      expect(new TextDecoder().decode(there[record]!.body)).toContain('inclusion');
    } finally {
      await pool.close();
    }
  });

  it('answers a route that does not exist with its status, as the build thread does', async () => {
    const pool = renderPool(data, { bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 1 });
    try {
      const path = 'objects/no-such-object/versions/9.9.9/';
      expect((await pool.render(path)).status).toBe((await here.render(path)).status);
    } finally {
      await pool.close();
    }
  });

  it('fails each page when the renderer cannot be loaded, naming it', async () => {
    const pool = renderPool(data, { bundleDir: join(work, 'no-renderer'), origin: DEFAULT_REGISTRY_URL, threads: 1 });
    try {
      await expect(pool.render('')).rejects.toThrow(/^the page renderer in .*no-renderer cannot be loaded: .*entry\.mjs/);
    } finally {
      await pool.close();
    }
  });

  it('refuses a pool without threads', () => {
    expect(() => renderPool(data, { bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 0 })).toThrow('a pool of threads needs at least one thread, not 0');
  });
});
