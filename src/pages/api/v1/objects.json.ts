/** `api/v1/objects.json`: the catalog's first page. */
import type { APIRoute } from 'astro';
import { apiCatalog } from '../../../core/api-documents.ts';
import { jsonResponse } from '../../../site/json-response.ts';
import { siteData } from '../../../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return jsonResponse(apiCatalog(data.registryUrl, data.catalog, 1));
};
