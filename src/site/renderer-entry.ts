/** The server entry of the page renderer: Astro's `App`, which renders any route of the site to a Response. */
import type { SSRManifest } from 'astro';
import { App } from 'astro/app';

/** What the renderer bundle exports (Astro calls this with the manifest of the build). */
export function createExports(manifest: SSRManifest): { app: App } {
  return { app: new App(manifest) };
}
