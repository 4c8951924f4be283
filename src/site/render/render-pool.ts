/**
 * Pages rendered on worker threads, so that rendering runs on other cores while the build's thread writes the files and
 * feeds the search index. Each thread loads the compiled renderer and gets its own copy of the site data.
 */
import { threadModuleFile, workerPool } from '../../io/worker-pool.ts';
import { batchedRenderer, type PackedPages } from './page-batch.ts';
import type { PageRenderer } from './page-renderer.ts';
import { portableSiteData, type PortableSiteData } from './portable-site-data.ts';
import type { SiteData } from '../data/site-model.ts';

/** Pages a thread renders in one task (page-batch.ts). */
const PAGES_PER_BATCH = 16;

/** Batches each thread holds at once, so that it never waits for the next while the build's thread writes. */
const BATCHES_PER_THREAD = 4;

/** What a render thread is started with (render-thread.ts). */
export interface RenderThreadData {
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

/** A renderer over `threads` worker threads, each holding a copy of `data`. */
export function renderPool(data: SiteData, options: RenderPoolOptions): PageRenderer {
  const file = threadModuleFile(import.meta.url, 'render-thread');
  if (!file) throw new Error(`the render thread's module is missing beside ${import.meta.url}`);
  const workerData: RenderThreadData = { bundleDir: options.bundleDir, origin: options.origin, data: portableSiteData(data) };
  const pool = workerPool<string[], PackedPages>(file, { threads: options.threads, tasksPerThread: BATCHES_PER_THREAD, workerData });
  return {
    render: batchedRenderer((paths) => pool.run(paths), PAGES_PER_BATCH),
    inFlight: options.threads * BATCHES_PER_THREAD * PAGES_PER_BATCH,
    close: () => pool.destroy(),
  };
}
