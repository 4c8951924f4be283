// @ts-check
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import { registryUrl } from './src/registry/registry-url.ts';

export default defineConfig({
  site: registryUrl(),
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [sitemap()],
});
