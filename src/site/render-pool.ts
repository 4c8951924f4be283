/**
 * Pages rendered on worker threads, so that rendering runs on another core while this thread writes files, makes the
 * JSON documents and feeds the search index. Each thread loads the renderer and its own copy of the site data once.
 */
import { Piscina } from 'piscina';
import type { PageRenderer, RenderedPage } from './page-renderer.ts';
import { portableSiteData } from './portable-site-data.ts';
import type { PortableSiteData } from './portable-site-data.ts';
import type { SiteData } from './site-data.ts';

const ENTRY = new URL('./render-worker-entry.mjs', import.meta.url).href;

/**
 * Pages each thread has at once: enough that it never waits for the next request while the build's thread runs a slice
 * of writes (8 were about 11 ms of rendering, and the render thread idled between slices).
 */
const PAGES_PER_THREAD = 32;

/** What a render thread is started with (render-worker-entry.mjs). */
export interface RenderWorkerData {
  /** The renderer bundle's folder. */
  bundleDir: string;
  origin: string;
  data: PortableSiteData;
}

/** Options of a render pool. */
export interface RenderPoolOptions {
  /** The renderer bundle's folder (renderer-bundle.ts). */
  bundleDir: string;
  origin: string;
  threads: number;
}

/** A renderer over at most `threads` worker threads, each holding a copy of `data`. */
export function renderPool(data: SiteData, options: RenderPoolOptions): PageRenderer {
  if (!Number.isInteger(options.threads) || options.threads < 1) throw new Error(`a render pool needs at least one thread, not ${options.threads}`);
  const workerData: RenderWorkerData = { bundleDir: options.bundleDir, origin: options.origin, data: portableSiteData(data) };
  const pool = new Piscina<string, RenderedPage>({
    filename: ENTRY,
    // Threads start with the first page asked for: a rebuild that renders nothing starts none (nor copies the data).
    minThreads: 0,
    maxThreads: options.threads,
    concurrentTasksPerWorker: PAGES_PER_THREAD,
    // Rendering awaits between its steps: a thread must keep its event loop, not block waiting for the next task.
    atomics: 'disabled',
    workerData,
    // No loader flags of this process: a render thread runs the renderer's compiled bundle, plain JavaScript.
    execArgv: [],
    // No `resourceLimits`: under the build's `--max-old-space-size` (scripts/build.mjs) Node gives every thread that
    // bound whatever a thread is given here, and sizing the bound meant serializing the site data once more (about
    // 170 MB at 100,000 versions).
  });
  return {
    render: (path) => pool.run(path),
    inFlight: options.threads * PAGES_PER_THREAD,
    close: () => pool.destroy(),
  };
}
