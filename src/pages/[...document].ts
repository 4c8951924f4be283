/** `astro dev` only: the site's documents (agent.json, the JSON API, feeds, sitemap), which the build writes itself. */
import type { APIRoute } from 'astro';
import { contentTypeOf } from '@aso-registry/core/format/content-types';
import { siteData } from '../site/data/site-data.ts';
import { siteDocuments } from '../site/build/site-documents.ts';

export const GET: APIRoute = async ({ params }) => {
  const doc = (await siteDocuments(await siteData())).find((d) => d.path === params.document);
  return doc ? new Response(doc.body, { headers: { 'content-type': contentTypeOf(doc.path) } }) : new Response('not found', { status: 404 });
};
