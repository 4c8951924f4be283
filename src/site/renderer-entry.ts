/**
 * The server entry of the page renderer: Astro's `App`, which renders any route of the site to a Response, and what a
 * render thread runs (render-worker-entry.mjs): it loads this compiled bundle alone, so it needs no TypeScript loader.
 */
import type { SSRManifest } from 'astro';
import { App } from 'astro/app';
import { packPages, type PackedPages } from './page-batch.ts';
import { renderWithApp } from './page-renderer.ts';
import { siteDataOf, type PortableSiteData } from './portable-site-data.ts';
import { provideSiteData } from './site-data.ts';

/**
 * Readies a render thread: imports every route's module while the site data is on its way, then hands the renderer
 * the data and renders batches of pages by path, packed for the trip back (page-batch.ts).
 */
export type RenderThread = (data: Promise<PortableSiteData>, origin: string) => Promise<(paths: readonly string[]) => Promise<PackedPages>>;

/**
 * What the renderer bundle exports (Astro calls this with the manifest of the build). The app renders each page to one
 * string (`streaming` off): the build reads every page whole, and streaming it in chunks, each encoded and then read
 * back through a web stream, cost the render thread about 2 s of its 17 s at ten thousand record pages.
 */
export function createExports(manifest: SSRManifest): { app: App; renderThread: RenderThread } {
  const once = importingOnce(manifest);
  const app = new App(once, false);
  const renderThread: RenderThread = async (data, origin) => {
    // The app imports a route's module on its first page otherwise: this thread may be started before the data is known.
    await Promise.all([...(once.pageMap?.values() ?? [])].map(async (load) => (await load()).page()));
    // The data comes without the log's Merkle tree, which is rebuilt here from the ledger's lines rather than copied.
    provideSiteData(siteDataOf(await data));
    return async (paths) => packPages(await Promise.all(paths.map((path) => renderWithApp(app, origin, path))));
  };
  return { app, renderThread };
}

/**
 * The manifest with each module it loads (each route's module, the actions, the middleware) imported once. Astro's
 * `App` imports a route's module, and its actions, again on every request, and each dynamic import goes through the
 * module loader (and its hooks, on a thread of their own) before it finds the module loaded: for ten thousand record
 * pages that was seconds of the build for the routes, and 1.7 s of the render thread's 18.8 s for the actions.
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
