/** `api/v1/index.json`: where the other API documents are. */
import type { APIRoute } from 'astro';
import { apiIndex } from '../../../core/api-documents.ts';
import { jsonResponse } from '../../../site/json-response.ts';
import { siteData } from '../../../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return jsonResponse(apiIndex(data.registryUrl, data.objects));
};
