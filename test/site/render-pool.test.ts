/** Rendering on worker threads gives the pages rendering in the build's own thread gives, and says when it cannot. */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { PAGES_FOR_A_THREAD, renderThreads } from '../../src/site/build-site.ts';
import { NOT_FOUND_PAGE } from '../../src/site/page-paths.ts';
import { appRenderer, type PageRenderer } from '../../src/site/page-renderer.ts';
import { pagePaths } from '../../src/site/page-paths.ts';
import { renderPool, startRenderPool } from '../../src/site/render-pool.ts';
import { loadRenderer, rendererBundle, type RendererBundle } from '../../src/site/renderer-bundle.ts';
import { provideSiteData, type SiteData } from '../../src/site/site-data.ts';
import { repoRoot } from '../support/build-site.ts';
import { loadSampleSite } from '../support/sample-site.ts';

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

  it('starts its threads before the data is known, and renders once it is provided, each thread with its copy', async () => {
    const pool = startRenderPool({ bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 2 });
    try {
      const paths = pagePaths(data);
      let settled = false;
      const first = pool.render(paths[0]!).finally(() => (settled = true));
      // The threads load the renderer meanwhile; a page waits for the data.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(settled).toBe(false);
      pool.provide(data);
      const [there, local] = await Promise.all([Promise.all(paths.map((p) => pool.render(p))), Promise.all(paths.map((p) => here.render(p)))]);
      expect(await first).toEqual(local[0]);
      expect(there).toEqual(local);
      expect(() => pool.provide(data)).toThrow('the site data of a render pool is provided once');
    } finally {
      await pool.close();
    }
  });

  it('hands the data to a thread that asks for it after it went out', async () => {
    const pool = startRenderPool({ bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 1 });
    // Provided before the thread has even loaded its entry: the thread asks once it listens, and gets it again.
    pool.provide(data);
    try {
      const path = pagePaths(data).find((p) => /^objects\/[^/]+\/versions\/[^/]+\/$/.test(p))!;
      expect(await pool.render(path)).toEqual(await here.render(path));
    } finally {
      await pool.close();
    }
  });

  it('refuses a pool without threads', () => {
    expect(() => renderPool(data, { bundleDir: bundle.dir, origin: DEFAULT_REGISTRY_URL, threads: 0 })).toThrow('a render pool needs at least one thread, not 0');
  });
});

describe('renderThreads', () => {
  it('is one per core but one, unless ASO_RENDER_THREADS says otherwise', () => {
    expect(renderThreads({})).toBeGreaterThanOrEqual(0);
    expect(renderThreads({ ASO_RENDER_THREADS: '3' })).toBe(3);
    expect(renderThreads({ ASO_RENDER_THREADS: '0' })).toBe(0);
  });

  it('is none for fewer pages than pay for a thread, unless ASO_RENDER_THREADS sets a number', () => {
    expect(renderThreads({}, PAGES_FOR_A_THREAD - 1)).toBe(0);
    expect(renderThreads({}, PAGES_FOR_A_THREAD)).toBe(availableParallelism() - 1);
    expect(renderThreads({ ASO_RENDER_THREADS: '1' }, 3)).toBe(1);
    expect(() => renderThreads({ ASO_RENDER_THREADS: 'two' })).toThrow('ASO_RENDER_THREADS must be a whole number of threads, 0 to render in the build\'s own thread (not "two")');
  });
});
