/** `list_versions`: an object's published versions, newest first, and which one `latest` resolves to. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { resolveVersion } from '@aso-registry/core/format/latest';
import type { RegistryContext } from './registry-context.ts';
import { toolResult } from './tool-result.ts';
import { versionSummaryOutput, versionSummarySchema } from './version-shapes.ts';

const inputSchema = z.object({ id: z.string().describe('the object id') });

const outputSchema = z.object({
  id: z.string(),
  latest: z.string().nullable().describe('the highest release, skipping retracted versions unless every version is retracted'),
  versions: z.array(versionSummarySchema).describe('newest first'),
});

export function registerListVersions(server: McpServer, { client }: RegistryContext): void {
  server.registerTool(
    'list_versions',
    {
      title: 'List the versions of an object',
      description: 'Every published version of an object, newest first, with its record hash, dates, prerelease and retraction status. A missing object is an error.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ id }) => {
      const versions = await client.listVersions(id);
      // `latest` as the SDK and the site resolve it: retracted versions are skipped unless all are.
      const active = versions.filter((v) => !v.retracted);
      const latest = resolveVersion((active.length ? active : versions).map((v) => v.version), 'latest') ?? null;
      return toolResult({ id, latest, versions: versions.map((v) => versionSummaryOutput(id, v)) } satisfies z.infer<typeof outputSchema>);
    },
  );
}
