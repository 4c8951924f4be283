/** `feed.xml`: an Atom feed of the latest publications and retractions. */
import type { APIRoute } from 'astro';
import { atomFeed } from '../core/feeds.ts';
import { siteData } from '../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return new Response(atomFeed(data.registryUrl, data.objects.flatMap((o) => o.versions)), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
};
