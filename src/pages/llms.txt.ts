/** `llms.txt`: a summary and links for language models and crawlers. */
import type { APIRoute } from 'astro';
import { llmsTxt } from '../core/llms-txt.ts';
import { siteData } from '../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return new Response(llmsTxt(data.registryUrl, data.objects), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
