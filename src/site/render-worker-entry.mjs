// The file piscina loads in each render thread (see render-pool.ts). It loads the page renderer's compiled bundle,
// takes the site data from its pool's broadcast channel, and renders the pages it is asked for. Bundle and entry are
// plain JavaScript: a thread that registered a TypeScript loader and compiled the renderer's glue through it spent about
// a second on that before its first page (ten thousand versions, 2 cores).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';

/** @type {import('./render-pool.ts').RenderWorkerData} */
const started = workerData;

/** The site data, once the pool provides it: asked for once listening, in case it went out before. */
/** @type {Promise<import('./portable-site-data.ts').PortableSiteData>} */
const data = new Promise((resolve) => {
  const channel = new BroadcastChannel(started.channel);
  channel.onmessage = (event) => {
    /** @type {import('./render-pool.ts').SiteDataMessage} */
    const message = event.data;
    if (message?.kind !== 'data') return;
    channel.close();
    resolve(message.data);
  };
  channel.postMessage(/** @type {import('./render-pool.ts').SiteDataMessage} */ ({ kind: 'ask' }));
});

// Not awaited here: a thread whose module fails to load is restarted by the pool over and over, while a failure kept
// in this promise fails each page asked for, naming its cause.
/** @type {Promise<(paths: readonly string[]) => Promise<import('./page-batch.ts').PackedPages>>} */
const ready = (async () => {
  /** @type {{ renderThread: import('./renderer-entry.ts').RenderThread }} */
  let entry;
  try {
    entry = await import(pathToFileURL(join(started.bundleDir, 'server', 'entry.mjs')).href);
  } catch (error) {
    // A plain error: what crosses back to the build thread is its message.
    throw new Error(`the page renderer in ${started.bundleDir} cannot be loaded: ${String(error?.message ?? error)}`);
  }
  return entry.renderThread(data, started.origin);
})();
ready.catch(() => {});

/** The batch this thread renders now, settled or not: the next one starts after it. */
let current = Promise.resolve();

/**
 * Renders a batch of pages of the site by their paths. Batches take turns (the pool sends a few at once, so that the
 * thread never waits for the next), so that each comes back as soon as its own pages are done. Their bytes, in one
 * buffer, are moved to the build's thread, not copied: the thread has no further use for them.
 */
export default async function renderPages(paths) {
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
