/**
 * What a render thread runs (see render-pool.ts): it loads the page renderer's compiled bundle, hands it the site data
 * it was started with, and renders the batches of pages it is asked for.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import type { PackedPages } from './page-batch.ts';
import type { RenderThreadData } from './render-pool.ts';
import type { RenderThread } from './renderer-entry.ts';

const started = workerData as RenderThreadData;

/** The renderer, or the reason it cannot load: kept here so that each batch fails naming it, rather than the pool restarting the thread. */
const ready = (async (): Promise<(paths: readonly string[]) => Promise<PackedPages>> => {
  let entry: { renderThread: RenderThread };
  try {
    entry = (await import(pathToFileURL(join(started.bundleDir, 'server', 'entry.mjs')).href)) as { renderThread: RenderThread };
  } catch (error) {
    throw new Error(`the page renderer in ${started.bundleDir} cannot be loaded: ${String((error as Error)?.message ?? error)}`);
  }
  return entry.renderThread(started.data, started.origin);
})();
ready.catch(() => {});

/** The batch this thread renders now: the next starts after it, so that each comes back as soon as its own pages are done. */
let current: Promise<unknown> = Promise.resolve();

/** Renders a batch of pages by their paths; their bytes, in one buffer, are moved to the build's thread, not copied. */
export default async function renderPages(paths: readonly string[]): Promise<unknown> {
  const rendering = current.then(async () => (await ready)(paths));
  current = rendering.catch(() => {});
  const packed = await rendering;
  return move({
    get [transferableSymbol]() {
      return [packed.bytes.buffer];
    },
    get [valueSymbol]() {
      return packed;
    },
  });
}
