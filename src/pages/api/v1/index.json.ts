/** `api/v1/index.json`: where the other API documents are. */
import type { APIRoute } from 'astro';
import { apiIndex } from '../../../core/api-documents.ts';
import { jsonResponse } from '../../../registry/json-response.ts';
import { siteData } from '../../../registry/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return jsonResponse(apiIndex(data.registryUrl, data.objects));
};
