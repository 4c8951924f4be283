/**
 * `search_objects`: objects whose id, name, tags or description match a query, filtered by tags, type, licence and
 * triangle count, with what an agent needs to choose one (latest version, licence, triangles, page and thumbnail URLs).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { AsoSdkError, type ApiObjectSummary } from '@aso-registry/sdk';
import { licenseMatches, rankCatalog } from './catalog-match.ts';
import type { RegistryContext, SearchFacts } from './registry-context.ts';
import { toolResult } from './tool-result.ts';
import { mainType } from './version-shapes.ts';

const DEFAULT_LIMIT = 10;
/** Version documents read at once while a search looks for matches. */
const BATCH = 8;
/** Versions whose facts are kept; past it the cache starts again. */
const CACHE_LIMIT = 10_000;

const inputSchema = z.object({
  query: z.string().max(500).describe('words to find in the id, name, tags or description (every word must match); "" for every object'),
  tags: z.array(z.string()).optional().describe('tags the object must all carry'),
  type: z.string().optional().describe('the type of its first representation: mesh, image or point-cloud'),
  license: z.string().optional().describe('an SPDX id such as CC0-1.0, or one without its version such as CC0'),
  maxTriangles: z.number().int().min(0).optional().describe('at most this many triangles (objects without a glTF mesh are left out)'),
  limit: z.number().int().min(1).max(100).optional().describe(`how many results, ${DEFAULT_LIMIT} by default`),
});

const resultSchema = z.object({
  id: z.string(),
  latest: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  license: z.string().nullable(),
  triangles: z.number().int().nullable().describe('of the first glTF representation of the latest version'),
  tags: z.array(z.string()),
  versions: z.number().int(),
  pageUrl: z.string().describe('the record page of the latest version'),
  thumbnailUrl: z.string().nullable().describe('the preview image its manifest declares (hashed like every file), or null'),
  apiUrl: z.string(),
});

const outputSchema = z.object({
  results: z.array(resultSchema),
  more: z.boolean().describe('whether more objects may match: raise limit to see them'),
  problems: z.array(z.string()).describe('objects left out because their documents did not verify'),
});

type SearchInput = z.infer<typeof inputSchema>;

/** The facts of the latest version of `entry`, read through the SDK (which checks the manifest against its record hash). */
async function factsOf({ client, searchFacts }: RegistryContext, entry: ApiObjectSummary): Promise<SearchFacts> {
  const key = `${entry.id}@${entry.latest}`;
  const known = searchFacts.get(key);
  if (known) return known;
  const doc = await client.getObject(entry.id, entry.latest, { log: 'skip', ledger: 'skip' });
  const facts: SearchFacts = {
    type: mainType(doc),
    license: doc.manifest.license ?? null,
    triangles: doc.representations.find((r) => r.gltf)?.gltf?.triangles ?? null,
    pageUrl: doc.pageUrl,
    thumbnailUrl: doc.manifest.preview?.url ?? null,
  };
  if (searchFacts.size >= CACHE_LIMIT) searchFacts.clear();
  searchFacts.set(key, facts);
  return facts;
}

function matches(facts: SearchFacts, input: SearchInput): boolean {
  if (input.type !== undefined && facts.type.toLowerCase() !== input.type.trim().toLowerCase()) return false;
  if (input.license !== undefined && !licenseMatches(facts.license, input.license)) return false;
  if (input.maxTriangles !== undefined && (facts.triangles === null || facts.triangles > input.maxTriangles)) return false;
  return true;
}

/** Reads the candidates' facts a batch at a time, best match first, until `limit` match. */
async function search(ctx: RegistryContext, input: SearchInput): Promise<z.infer<typeof outputSchema>> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const candidates = rankCatalog(await ctx.client.listObjects(), input.query, input.tags);
  const results: Array<z.infer<typeof resultSchema>> = [];
  const problems: string[] = [];
  let next = 0;
  let more = false;
  while (next < candidates.length && !more) {
    const batch = candidates.slice(next, next + BATCH);
    next += batch.length;
    const read = await Promise.all(
      batch.map((entry) =>
        factsOf(ctx, entry).then(
          (facts) => ({ entry, facts }),
          (error: unknown) => {
            if (!(error instanceof AsoSdkError)) throw error;
            problems.push(`${entry.id}@${entry.latest}: ${error.message}`);
            return null;
          },
        ),
      ),
    );
    for (const hit of read) {
      if (!hit || !matches(hit.facts, input)) continue;
      if (results.length === limit) {
        more = true;
        break;
      }
      const { entry, facts } = hit;
      results.push({
        id: entry.id,
        latest: entry.latest,
        name: entry.name,
        description: entry.description,
        type: facts.type,
        license: facts.license,
        triangles: facts.triangles,
        tags: entry.tags,
        versions: entry.versions.length,
        pageUrl: facts.pageUrl,
        thumbnailUrl: facts.thumbnailUrl,
        apiUrl: entry.apiUrl,
      });
    }
    // With the filters on the catalog alone, any candidate left is a match.
    if (results.length === limit && next < candidates.length && input.type === undefined && input.license === undefined && input.maxTriangles === undefined) more = true;
  }
  return { results, more, problems };
}

export function registerSearchObjects(server: McpServer, ctx: RegistryContext): void {
  server.registerTool(
    'search_objects',
    {
      title: 'Search the registry',
      description:
        'Finds objects by words in their id, name, tags or description, best match first, optionally only those with given tags, type, licence or at most a number of triangles. ' +
        'Each result gives the latest version, name, type, licence, triangles, the record page and a thumbnail URL; read one with get_object and check its bytes with verify_object.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (input) => toolResult(await search(ctx, input)),
  );
}
