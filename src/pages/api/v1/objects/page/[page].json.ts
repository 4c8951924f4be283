/** `api/v1/objects/page/<n>.json`: page 2 and up of the catalog. */
import type { APIRoute } from 'astro';
import { apiCatalog } from '../../../../../core/api-documents.ts';
import { API_PAGE_SIZE, pageCount } from '../../../../../core/paging.ts';
import { jsonResponse } from '../../../../../site/json-response.ts';
import { pageParam } from '../../../../../site/listings.ts';
import { siteData } from '../../../../../site/site-data.ts';

export async function getStaticPaths() {
  const data = await siteData();
  return Array.from({ length: pageCount(data.catalog.length, API_PAGE_SIZE) - 1 }, (_, i) => ({ params: { page: String(i + 2) } }));
}

export const GET: APIRoute = async ({ params }) => {
  const data = await siteData();
  return jsonResponse(apiCatalog(data.registryUrl, data.catalog, pageParam(params.page)));
};
