// The file piscina loads in each render thread (see render-pool.ts). It loads the page renderer's compiled bundle,
// hands it the site data the thread was started with, and renders the pages it is asked for. Bundle and entry are plain
// JavaScript: a thread that registered a TypeScript loader and compiled the renderer's glue through it spent about a
// second on that before its first page (ten thousand versions, 2 cores).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workerData } from 'piscina';

/** @type {import('./render-pool.ts').RenderWorkerData} */
const started = workerData;
// Not awaited here: a thread whose module fails to load is restarted by the pool over and over, while a failure kept
// in this promise fails each page asked for, naming its cause.
/** @type {Promise<(path: string) => Promise<import('./page-renderer.ts').RenderedPage>>} */
const ready = (async () => {
  try {
    /** @type {{ renderThread: import('./renderer-entry.ts').RenderThread }} */
    const entry = await import(pathToFileURL(join(started.bundleDir, 'server', 'entry.mjs')).href);
    return entry.renderThread(started.data, started.origin);
  } catch (error) {
    // A plain error: what crosses back to the build thread is its message.
    throw new Error(`the page renderer in ${started.bundleDir} cannot be loaded: ${String(error?.message ?? error)}`);
  }
})();
ready.catch(() => {});

/** Renders one page of the site by its path. */
export default async function renderPage(path) {
  return (await ready)(path);
}
