/** `api/v1/objects/<id>.json`: one object with its versions (newest first) and latest. */
import type { APIRoute } from 'astro';
import { apiObject } from '../../../../core/api-documents.ts';
import { jsonResponse } from '../../../../site/json-response.ts';
import { siteData } from '../../../../site/site-data.ts';

export async function getStaticPaths() {
  const data = await siteData();
  return data.objects.map((o) => ({ params: { id: o.id } }));
}

export const GET: APIRoute = async ({ params }) => {
  const data = await siteData();
  const object = data.objects.find((o) => o.id === params.id)!;
  return jsonResponse(apiObject(data.registryUrl, object));
};
