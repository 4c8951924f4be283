/** The server entry of the page renderer: Astro's `App`, which renders any route of the site to a Response. */
import type { SSRManifest } from 'astro';
import { App } from 'astro/app';

/** What the renderer bundle exports (Astro calls this with the manifest of the build). */
export function createExports(manifest: SSRManifest): { app: App } {
  return { app: new App(importingPagesOnce(manifest)) };
}

/**
 * The manifest with each route's module imported once. Astro's `App` imports a route's module again on every request,
 * and each dynamic import goes through the module loader (and its hooks, on a thread of their own) before it finds the
 * module loaded: for ten thousand record pages that was seconds of the build.
 */
export function importingPagesOnce(manifest: SSRManifest): SSRManifest {
  if (!manifest.pageMap) return manifest;
  const pageMap: NonNullable<SSRManifest['pageMap']> = new Map();
  for (const [component, load] of manifest.pageMap) {
    let loaded: ReturnType<typeof load> | undefined;
    pageMap.set(component, () => (loaded ??= load()));
  }
  return { ...manifest, pageMap };
}
