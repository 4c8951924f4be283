// @ts-check
// The pages, layouts and components of the site. `astro build` compiles them into the page renderer (a server bundle
// and the client bundle); `npm run build` renders the registry's pages with it and writes everything else itself
// (src/site/build/build-site.ts). `astro dev` serves the registry of the environment from the same code.
import { defineConfig } from 'astro/config';
import { registryUrl } from './src/registry/registry-url.ts';
import { rendererAdapter } from './src/site/render/renderer-adapter.ts';

export default defineConfig({
  site: registryUrl(),
  output: 'server',
  adapter: rendererAdapter(),
  trailingSlash: 'ignore',
  vite: {
    // <model-viewer> with three is one lazily loaded chunk of about 1 MB; nothing else comes near it.
    build: { chunkSizeWarningLimit: 1200 },
  },
});
