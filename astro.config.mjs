// @ts-check
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import { registryUrl } from './src/registry/registry-url.ts';
import { registrySite } from './src/site/site-integration.ts';

export default defineConfig({
  site: registryUrl(),
  // Tests and the benchmark build several sites at once; each keeps its own content cache.
  cacheDir: process.env.ASO_CACHE_DIR || './node_modules/.astro',
  trailingSlash: 'ignore',
  // Writing pages waits on the disk far more than it computes, so several are written at once.
  build: { format: 'directory', concurrency: 8 },
  integrations: [sitemap(), registrySite()],
  // <model-viewer> with three is one lazily loaded chunk of about 1 MB; nothing else comes near it.
  vite: { build: { chunkSizeWarningLimit: 1200 } },
});
