/** `get_object`: one verified version document (manifest, files with hashes, compatibility, facts, provenance, log status). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { ObjectVersion } from '@aso-registry/sdk';
import type { RegistryContext } from './registry-context.ts';
import { toolResult } from './tool-result.ts';
import { versionFacts, versionFactsSchema } from './version-facts.ts';
import { checkpointSchema, manifestResourceUri, representationOutput, representationSchema, retractionSchema } from './version-shapes.ts';

const inputSchema = z.object({
  id: z.string().describe('the object id, e.g. "oak-chair"'),
  version: z.string().optional().describe('an exact version, "latest" (the default) or a SemVer range such as "^1.0.0"'),
});

const logStatusSchema = z.object({
  proven: z.boolean().describe('whether the version was proven in the transparency log'),
  leafIndex: z.number().int().nullable(),
  checkpoint: checkpointSchema.nullable(),
  publisher: z.object({ name: z.string(), keyId: z.string() }).nullable().describe('the publisher whose signature verified; null when unsigned'),
  ledgerVerified: z.boolean().describe('whether the whole ledger was read and vouched for the version'),
  retractionVerified: z.boolean().describe('whether "retracted" comes from the retractions the signed checkpoint commits to'),
});

const outputSchema = z.object({
  id: z.string(),
  version: z.string(),
  latest: z.string(),
  recordHash: z.string().describe('the SHA-256 of the manifest bytes, checked before anything was returned'),
  manifest: z.record(z.string(), z.unknown()).describe('the verified aso.object.json'),
  publication: z.object({
    publicationId: z.string(),
    publishedAt: z.string(),
    publisher: z.string(),
    recordHash: z.string(),
    keyId: z.string().optional(),
    signature: z.string().optional(),
  }),
  representations: z.array(representationSchema).describe('as the verified manifest declares them, the preview last'),
  facts: versionFactsSchema,
  provenance: z.record(z.string(), z.unknown()),
  log: logStatusSchema,
  retracted: retractionSchema,
  worlds: z.array(z.object({ id: z.string(), name: z.string() })),
  pageUrl: z.string(),
  manifestUrl: z.string(),
  agentUrl: z.string(),
  resource: z.string(),
});

/** The tool's structured answer for a verified version. */
function objectOutput(doc: ObjectVersion): z.infer<typeof outputSchema> {
  const proof = doc.logVerified;
  return {
    id: doc.id,
    version: doc.version,
    latest: doc.latest,
    recordHash: doc.publication.recordHash,
    manifest: { ...doc.manifest },
    publication: { ...doc.publication },
    representations: doc.representations.map(representationOutput),
    facts: versionFacts(doc),
    provenance: { ...doc.manifest.provenance },
    log: {
      proven: proof !== null,
      leafIndex: proof?.leafIndex ?? null,
      checkpoint: proof ? { origin: proof.checkpoint.origin, size: proof.checkpoint.size, rootHash: proof.checkpoint.rootHash, signature: proof.checkpoint.signature, signedBy: proof.checkpoint.signedBy } : null,
      publisher: proof?.publisher ?? null,
      ledgerVerified: doc.ledgerVerified,
      retractionVerified: doc.retractionVerified,
    },
    retracted: doc.retracted ?? null,
    worlds: doc.worlds,
    pageUrl: doc.pageUrl,
    manifestUrl: doc.manifestUrl,
    agentUrl: doc.agentUrl,
    resource: manifestResourceUri(doc.id, doc.version),
  };
}

export function registerGetObject(server: McpServer, { client }: RegistryContext): void {
  server.registerTool(
    'get_object',
    {
      title: 'Get a verified object version',
      description:
        'Reads one version of an object: its manifest (checked against the record hash before it is returned), every file with its byte length and SHA-256, ' +
        'runtime compatibility, facts (licence, triangles, ...), provenance and what the transparency log proved. A missing object or version is an error.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ id, version }) => toolResult(objectOutput(await client.getObject(id, version ?? 'latest'))),
  );
}
