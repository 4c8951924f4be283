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
provideSiteData(siteDataOf(started.data));
const app: App = await loadRenderer({ dir: started.bundleDir });

/** Renders one page of the site by its path. */
export default function renderPage(path: string): Promise<RenderedPage> {
  return renderWithApp(app, started.origin, path);
}
