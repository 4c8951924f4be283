/** `robots.txt`: everything may be crawled; the sitemap lists every page. */
import type { APIRoute } from 'astro';
import { registryUrl } from '../registry/registry-url.ts';

export const GET: APIRoute = () =>
  new Response(`User-agent: *\nAllow: /\n\nSitemap: ${registryUrl()}/sitemap-index.xml\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
