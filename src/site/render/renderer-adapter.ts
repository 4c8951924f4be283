/**
 * The Astro adapter of the page renderer: `astro build` compiles the pages, layouts and components once into a server
 * bundle whose entry exports Astro's `App` and what a render thread runs (renderer-entry.ts), and the client bundle
 * (the viewer island with model-viewer and three) beside it. `npm run build` renders every page of the registry with
 * that `App`, many at once, and builds the bundle again only when the site's code changes (renderer-bundle.ts).
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/** The adapter's name, as Astro reports it. */
const RENDERER_ADAPTER = 'aso-registry-renderer';

/** The adapter for `astro.config.mjs`. */
export function rendererAdapter(): AstroIntegration {
  return {
    name: RENDERER_ADAPTER,
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: RENDERER_ADAPTER,
          serverEntrypoint: fileURLToPath(new URL('./renderer-entry.ts', import.meta.url)),
          exports: ['app', 'renderThread'],
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'unsupported', hybridOutput: 'stable', sharpImageService: 'unsupported' },
        });
      },
    },
  };
}
