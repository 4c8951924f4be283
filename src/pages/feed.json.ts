/** `feed.json`: a JSON Feed of the latest publications and retractions. */
import type { APIRoute } from 'astro';
import { jsonFeed } from '../core/feeds.ts';
import { siteData } from '../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return new Response(jsonFeed(data.registryUrl, data.objects.flatMap((o) => o.versions)), { headers: { 'Content-Type': 'application/feed+json' } });
};
