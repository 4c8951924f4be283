/** `api/v1/ledger.json`: the checkpoint of the publication ledger (size and head) and where the ledger is. */
import type { APIRoute } from 'astro';
import { jsonResponse } from '../../../site/json-response.ts';
import { ledgerCheckpointDocument } from '../../../site/ledger-site.ts';
import { registryDir } from '../../../registry/registry-dir.ts';
import { siteData } from '../../../site/site-data.ts';

export const GET: APIRoute = async () => {
  const data = await siteData();
  return jsonResponse(await ledgerCheckpointDocument(registryDir(), data.registryUrl));
};
