/**
 * A render thread: it loads the page renderer and the site data it was started with, then renders the pages it is
 * asked for (see render-pool.ts). The data comes without the log's Merkle tree, which is rebuilt here from the
 * ledger's lines rather than copied.
 */
import { workerData } from 'piscina';
import type { App } from 'astro/app';
import { renderWithApp, type RenderedPage } from './page-renderer.ts';
import { loadRenderer } from './renderer-bundle.ts';
import { siteDataOf, type PortableSiteData } from './portable-site-data.ts';
import { provideSiteData } from './site-data.ts';

/** What a render thread is started with. */
export interface RenderWorkerData {
  /** The renderer bundle's folder. */
  bundleDir: string;
  origin: string;
  data: PortableSiteData;
}

const started = workerData as RenderWorkerData;
// Not awaited here: a thread whose module fails to load is restarted by the pool over and over, while a failure kept
// in this promise fails each page asked for, naming its cause.
const ready: Promise<App> = (async () => {
  provideSiteData(siteDataOf(started.data));
  try {
    return await loadRenderer({ dir: started.bundleDir });
  } catch (error) {
    // A plain error: what crosses back to the build thread is its message.
    throw new Error(`the page renderer in ${started.bundleDir} cannot be loaded: ${String((error as Error)?.message ?? error)}`);
  }
})();
ready.catch(() => {});

/** Renders one page of the site by its path. */
export default async function renderPage(path: string): Promise<RenderedPage> {
  return renderWithApp(await ready, started.origin, path);
}
