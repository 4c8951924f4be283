/** `api/v1/worlds.json`: every world and the exact versions it references. */
import type { APIRoute } from 'astro';
import { jsonResponse } from '../../../site/json-response.ts';
import { siteData } from '../../../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return jsonResponse({ schema: 'aso/api/v1/worlds', worlds: data.worlds });
};
