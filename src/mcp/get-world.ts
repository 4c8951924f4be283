/** `get_world`: a world the site publishes in `api/v1/worlds.json`, with each exact version it references read and verified. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { InvalidResponseError, NotFoundError } from '@aso-registry/sdk';
import type { RegistryContext } from './registry-context.ts';
import { fetchSiteJson } from './site-fetch.ts';
import { toolResult } from './tool-result.ts';
import { manifestResourceUri } from './version-shapes.ts';

const inputSchema = z.object({ id: z.string().describe('the world id, e.g. "reading-room"') });

/** `api/v1/worlds.json` as the site publishes it. */
const worldsDocument = z.object({
  schema: z.literal('aso/api/v1/worlds'),
  worlds: z.array(z.object({ id: z.string(), name: z.string(), objects: z.array(z.object({ id: z.string(), version: z.string() })) })),
});

const outputSchema = z.object({
  id: z.string(),
  name: z.string(),
  objects: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      name: z.string(),
      license: z.string().nullable(),
      recordHash: z.string(),
      retracted: z.boolean(),
      pageUrl: z.string(),
      resource: z.string(),
    }),
  ),
});

export function registerGetWorld(server: McpServer, { client }: RegistryContext): void {
  server.registerTool(
    'get_world',
    {
      title: 'Get a world',
      description: 'A world is a named set of exact object versions. Returns the world and, for each version it references, its name, licence and record hash, each version verified. A missing world is an error.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ id }) => {
      const url = await client.resolveUrl((await client.getIndex()).worlds);
      const parsed = worldsDocument.safeParse(await fetchSiteJson(url));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InvalidResponseError(url, issue.path.map((p) => `/${String(p)}`).join(''), issue.message);
      }
      const world = parsed.data.worlds.find((w) => w.id === id);
      if (!world) throw new NotFoundError(url, `no world "${id}" in the registry at ${client.origin} (worlds: ${parsed.data.worlds.map((w) => w.id).join(', ') || 'none'})`);
      const objects = await Promise.all(
        world.objects.map(async (ref) => {
          const doc = await client.getObject(ref.id, ref.version);
          return {
            id: doc.id,
            version: doc.version,
            name: doc.manifest.name,
            license: doc.manifest.license ?? null,
            recordHash: doc.publication.recordHash,
            retracted: Boolean(doc.retracted),
            pageUrl: doc.pageUrl,
            resource: manifestResourceUri(doc.id, doc.version),
          };
        }),
      );
      return toolResult({ id: world.id, name: world.name, objects } satisfies z.infer<typeof outputSchema>);
    },
  );
}
