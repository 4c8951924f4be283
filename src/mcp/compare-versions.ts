/** `compare_versions`: the facts and metadata of two verified versions of an object, and what differs between them. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { RegistryContext } from './registry-context.ts';
import { toolResult } from './tool-result.ts';
import { factDifferences, versionFacts, versionFactsSchema } from './version-facts.ts';

const inputSchema = z.object({
  id: z.string().describe('the object id'),
  from: z.string().describe('the older version: exact, "latest" or a SemVer range'),
  to: z.string().describe('the newer version: exact, "latest" or a SemVer range'),
});

const sideSchema = z.object({ version: z.string(), recordHash: z.string(), facts: versionFactsSchema });

const outputSchema = z.object({
  id: z.string(),
  from: sideSchema,
  to: sideSchema,
  identical: z.boolean().describe('whether every fact is the same'),
  differences: z.array(
    z.object({
      field: z.string(),
      from: z.unknown(),
      to: z.unknown(),
      added: z.array(z.string()).optional(),
      removed: z.array(z.string()).optional(),
    }),
  ),
});

export function registerCompareVersions(server: McpServer, { client }: RegistryContext): void {
  server.registerTool(
    'compare_versions',
    {
      title: 'Compare two versions of an object',
      description:
        'Reads two verified versions of one object and lists the facts and metadata that differ: name, description, tags, licence, publisher, files and their hashes, triangles, vertices, materials, ...',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ id, from, to }) => {
      const [a, b] = await Promise.all([client.getObject(id, from), client.getObject(id, to)]);
      const side = (doc: typeof a) => ({ version: doc.version, recordHash: doc.publication.recordHash, facts: versionFacts(doc) });
      const [older, newer] = [side(a), side(b)];
      const differences = factDifferences(older.facts, newer.facts);
      const out: z.infer<typeof outputSchema> = { id, from: older, to: newer, identical: differences.length === 0, differences };
      return toolResult(out);
    },
  );
}
