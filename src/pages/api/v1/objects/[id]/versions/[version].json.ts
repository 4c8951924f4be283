/** `api/v1/objects/<id>/versions/<version>.json`: one version with its manifest, publication record, integrity and compatibility. */
import type { APIRoute } from 'astro';
import { apiVersion } from '../../../../../../core/api-documents.ts';
import { jsonResponse } from '../../../../../../site/json-response.ts';
import { findVersion, siteData, versionLogFor, versionPaths } from '../../../../../../site/site-data.ts';

export const getStaticPaths = versionPaths;

export const GET: APIRoute = async ({ params }) => {
  const data = await siteData();
  const { object, entry } = findVersion(data, params.id!, params.version!);
  return jsonResponse(apiVersion(data.registryUrl, object, { ...entry, log: versionLogFor(data, params.id!, params.version!) }, data.worlds));
};
