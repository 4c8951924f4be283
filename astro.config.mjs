// @ts-check
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import { registryDir } from './src/registry/registry-dir.ts';
import { registryUrl } from './src/registry/registry-url.ts';
import { registrySite } from './src/site/site-integration.ts';
import { sitemapSerializer } from './src/site/sitemap-times.ts';

export default defineConfig({
  site: registryUrl(),
  // Tests and the benchmark build several sites at once; each keeps its own content cache.
  cacheDir: process.env.ASO_CACHE_DIR || './node_modules/.astro',
  trailingSlash: 'ignore',
  // Writing pages waits on the disk far more than it computes, so several are written at once.
  build: { format: 'directory', concurrency: 8 },
  // `lastmod` of every URL from the publication and retraction times (src/core/sitemap.ts).
  integrations: [sitemap({ serialize: sitemapSerializer(() => registryDir(), () => registryUrl()) }), registrySite()],
  // <model-viewer> with three is one lazily loaded chunk of about 1 MB; nothing else comes near it.
  vite: { build: { chunkSizeWarningLimit: 1200 } },
});
