/**
 * Pages rendered on worker threads, so that rendering runs on another core while this thread writes files, makes the
 * JSON documents and feeds the search index. Each thread loads the renderer and its own copy of the site data once.
 * The threads may start before the data is known (a cold build starts them while the registry is checked): each
 * loads the renderer meanwhile, and takes the data from a broadcast channel of its pool once it is provided.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { batchedRenderer, type PackedPages } from './page-batch.ts';
import type { PageRenderer } from './page-renderer.ts';
import { portableSiteData, type PortableSiteData } from './portable-site-data.ts';
import type { SiteData } from './site-data.ts';

const ENTRY = new URL('./render-worker-entry.mjs', import.meta.url).href;

/** Pages a thread renders in one task (page-batch.ts). */
const PAGES_PER_BATCH = 16;

/**
 * Batches each thread has at once: pages enough that it never waits for the next request while the build's thread runs
 * a slice of writes (8 pages were about 11 ms of rendering, and the render thread idled between slices).
 */
const BATCHES_PER_THREAD = 4;

/** What a render thread is started with (render-worker-entry.mjs). */
export interface RenderWorkerData {
  /** The renderer bundle's folder. */
  bundleDir: string;
  origin: string;
  /** The name of the pool's broadcast channel, on which the thread asks for the site data and receives it. */
  channel: string;
}

/** What crosses a pool's channel: a thread asking for the data, or the data. */
export type SiteDataMessage = { kind: 'ask' } | { kind: 'data'; data: PortableSiteData };

/** Options of a render pool. */
export interface RenderPoolOptions {
  /** The renderer bundle's folder (renderer-bundle.ts). */
  bundleDir: string;
  origin: string;
  threads: number;
}

/** A render pool whose threads are started and load the renderer; pages render once the site data is provided. `close` may be called again. */
export interface StartedRenderPool extends PageRenderer {
  readonly threads: number;
  /** Hands the site data to the threads, those running and those to come (once). */
  provide(data: SiteData): void;
}

/** Pools started by this process, for unique channel names. */
let pools = 0;

/** Starts `threads` render threads now; each loads the renderer and waits for the data of {@link StartedRenderPool.provide}. */
export function startRenderPool(options: RenderPoolOptions): StartedRenderPool {
  if (!Number.isInteger(options.threads) || options.threads < 1) throw new Error(`a render pool needs at least one thread, not ${options.threads}`);
  const channel = `aso-site-data-${process.pid}-${++pools}`;
  const workerData: RenderWorkerData = { bundleDir: options.bundleDir, origin: options.origin, channel };
  let portable: PortableSiteData | undefined;
  // A thread that asks after the data went out (a thread started or restarted later) gets it again; one that has it no
  // longer listens. This end keeps no process alive.
  const broadcast = new BroadcastChannel(channel);
  broadcast.unref();
  const send = (): void => broadcast.postMessage({ kind: 'data', data: portable! } satisfies SiteDataMessage);
  broadcast.onmessage = (event) => {
    if ((event as { data?: SiteDataMessage }).data?.kind === 'ask' && portable) send();
  };
  let closing: Promise<void> | undefined;
  const pool = new Piscina<string[], PackedPages>({
    filename: ENTRY,
    // Started now: the threads load the renderer while the caller still works on the data.
    minThreads: options.threads,
    maxThreads: options.threads,
    concurrentTasksPerWorker: BATCHES_PER_THREAD,
    // Rendering awaits between its steps: a thread must keep its event loop, not block waiting for the next task.
    atomics: 'disabled',
    workerData,
    // No loader flags of this process: a render thread runs the renderer's compiled bundle, plain JavaScript.
    execArgv: [],
    // No `resourceLimits`: under the build's `--max-old-space-size` (scripts/build.mjs) Node gives every thread that
    // bound whatever a thread is given here, and sizing the bound meant serializing the site data once more (about
    // 170 MB at 100,000 versions).
  });
  const render = batchedRenderer((paths) => pool.run(paths), PAGES_PER_BATCH);
  return {
    threads: options.threads,
    provide(data) {
      if (portable) throw new Error('the site data of a render pool is provided once');
      portable = portableSiteData(data);
      send();
    },
    render,
    inFlight: options.threads * BATCHES_PER_THREAD * PAGES_PER_BATCH,
    close: () =>
      (closing ??= (async () => {
        broadcast.close();
        await pool.destroy();
      })()),
  };
}

/** A renderer over `threads` worker threads, each holding a copy of `data`. */
export function renderPool(data: SiteData, options: RenderPoolOptions): PageRenderer {
  const pool = startRenderPool(options);
  pool.provide(data);
  return pool;
}
