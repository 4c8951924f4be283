/** `agent.json`: the discovery document of one version. */
import type { APIRoute } from 'astro';
import { agentDocument } from '../../../../../core/api-documents.ts';
import { jsonResponse } from '../../../../../site/json-response.ts';
import { findVersion, siteData, versionLogFor, versionPaths } from '../../../../../site/site-data.ts';

export const getStaticPaths = versionPaths;

export const GET: APIRoute = async ({ params }) => {
  const data = await siteData();
  const { object, entry } = findVersion(data, params.id!, params.version!);
  return jsonResponse(agentDocument(data.registryUrl, object, { ...entry, log: versionLogFor(data, params.id!, params.version!) }));
};
