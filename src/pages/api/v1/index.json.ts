/** `api/v1/index.json`: where the other API documents are. */
import type { APIRoute } from 'astro';
import { apiIndex, apiLogInfo } from '../../../core/api-documents.ts';
import { jsonResponse } from '../../../site/json-response.ts';
import { siteData } from '../../../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  const log = data.log && apiLogInfo(data.registryUrl, data.log.checkpointUrl, data.log.checkpoint.origin, data.keys.logKey?.text ?? null);
  return jsonResponse(apiIndex(data.registryUrl, data.objects, log));
};
