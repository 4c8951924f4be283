/** How the build asks for a page: one route of the site rendered to its status and HTML, in this thread or another. */
import type { App } from 'astro/app';
import { NOT_FOUND_PAGE } from '../data/page-paths.ts';

/**
 * A rendered page: its status and its HTML as the UTF-8 bytes Astro encoded. They are written as they are, and cross
 * from a render thread to the build's thread moved, not copied: decoding every page into a string only to encode it
 * again for its file would spend CPU on every page for nothing.
 */
export interface RenderedPage {
  status: number;
  body: Uint8Array;
}

/** Renders pages by site path (`objects/x/`, `404.html`); `close` releases what it holds (threads). */
export interface PageRenderer {
  render(path: string): Promise<RenderedPage>;
  /** Pages worth having in flight at once to keep it busy. */
  readonly inFlight: number;
  close(): Promise<void>;
}

/** The request path Astro routes a site path by (`404.html` is the `404` route). */
function routeOf(path: string): string {
  return path === NOT_FOUND_PAGE ? '/404' : `/${path}`;
}

/** Renders one page with Astro's `App` on `origin`. */
export async function renderWithApp(app: App, origin: string, path: string): Promise<RenderedPage> {
  const response = await app.render(new Request(new URL(routeOf(path), origin)));
  return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
}

/** Pages rendered at once in this thread: rendering is synchronous work between awaits, so a few in flight are enough. */
const RENDERS_IN_THREAD = 4;

/** A renderer in this thread, over the site data provided to it (`provideSiteData`). */
export function appRenderer(app: App, origin: string): PageRenderer {
  return { render: (path) => renderWithApp(app, origin, path), inFlight: RENDERS_IN_THREAD, close: async () => {} };
}
