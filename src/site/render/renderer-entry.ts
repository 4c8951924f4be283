/**
 * The server entry of the page renderer: Astro's `App`, which renders any route of the site to a Response, and what a
 * render thread (render-thread.ts) calls to render batches of pages with it.
 */
import type { SSRManifest } from 'astro';
import { App } from 'astro/app';
import { packPages, type PackedPages } from './page-batch.ts';
import { renderWithApp } from './page-renderer.ts';
import { siteDataOf, type PortableSiteData } from './portable-site-data.ts';
import { provideSiteData } from '../data/site-data.ts';

/** Readies a render thread: hands the renderer the site data, then renders batches of pages by path, packed for the trip back (page-batch.ts). */
export type RenderThread = (data: PortableSiteData, origin: string) => Promise<(paths: readonly string[]) => Promise<PackedPages>>;

/**
 * What the renderer bundle exports (Astro calls this with the manifest of the build). The app renders each page to one
 * string (`streaming` off): the build reads every page whole, so chunks would only be encoded and read back.
 */
export function createExports(manifest: SSRManifest): { app: App; renderThread: RenderThread } {
  const once = importingOnce(manifest);
  const app = new App(once, false);
  const renderThread: RenderThread = async (data, origin) => {
    // The data comes without the log's Merkle tree, which is rebuilt here from the ledger's lines rather than copied.
    provideSiteData(siteDataOf(data));
    return async (paths) => packPages(await Promise.all(paths.map((path) => renderWithApp(app, origin, path))));
  };
  return { app, renderThread };
}

/**
 * The manifest with each module it loads (each route's module, the actions, the middleware) imported once: Astro's
 * `App` asks for them again on every request, and each dynamic import goes through the module loader first.
 */
export function importingOnce(manifest: SSRManifest): SSRManifest {
  const out: SSRManifest = { ...manifest };
  if (manifest.pageMap) {
    const pageMap: NonNullable<SSRManifest['pageMap']> = new Map();
    for (const [component, load] of manifest.pageMap) pageMap.set(component, once(load));
    out.pageMap = pageMap;
  }
  if (manifest.actions) out.actions = once(manifest.actions);
  if (manifest.middleware) out.middleware = once(manifest.middleware);
  return out;
}

/** `load`, called the first time only: later calls return what the first returned. */
function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}
