/** The zod shapes the tools share for a version's parts, and the conversions from what the SDK returns. */
import * as z from 'zod';
import type { ApiRepresentation, ApiVersionSummary, ObjectVersion } from '@aso-registry/sdk';

const gltfInventorySchema = z.object({
  triangles: z.number().int(),
  vertices: z.number().int(),
  drawCalls: z.number().int(),
  materials: z.number().int(),
  textures: z.number().int(),
  animations: z.number().int(),
  skins: z.number().int(),
  extensionsUsed: z.array(z.string()),
  extensionsRequired: z.array(z.string()),
  dimensions: z.tuple([z.number(), z.number(), z.number()]).optional().describe('the scene\'s size in metres along x, y and z, from its bounds'),
});

export const representationSchema = z.object({
  id: z.string(),
  role: z.enum(['representation', 'preview']),
  type: z.string(),
  format: z.string(),
  mediaType: z.string(),
  url: z.string(),
  byteLength: z.number().int(),
  hash: z.string().describe('sha256-<base64>, as the verified manifest declares it'),
  sha256: z.string().describe('the same digest in lowercase hex'),
  runtimes: z.array(z.string()).describe('the runtimes that can load it'),
  compatibility: z.string().describe('one report per runtime, joined'),
  gltf: gltfInventorySchema.nullable().describe('for glTF, what the file holds as gltf-validator read it'),
});

export const retractionSchema = z.object({ reason: z.string(), retractedAt: z.string() }).nullable();

export const checkpointSchema = z.object({
  origin: z.string(),
  size: z.number().int(),
  rootHash: z.string(),
  signature: z.enum(['verified', 'unverified', 'unsigned']).describe('verified: signed by the pinned --log-key; unverified: signed, but no key pinned; unsigned'),
  signedBy: z.string().nullable(),
});

export const versionSummarySchema = z.object({
  version: z.string(),
  createdAt: z.string(),
  publishedAt: z.string(),
  prerelease: z.boolean(),
  recordHash: z.string(),
  retracted: retractionSchema,
  pageUrl: z.string(),
  manifestUrl: z.string(),
  resource: z.string().describe('the manifest as an MCP resource'),
});

/** The MCP resource URI of a version's manifest. */
export function manifestResourceUri(id: string, version: string): string {
  return `aso://objects/${id}/versions/${version}/manifest`;
}

/** A representation as the tools report it. */
export function representationOutput(rep: ApiRepresentation): z.infer<typeof representationSchema> {
  return {
    id: rep.id,
    role: rep.role,
    type: rep.type,
    format: rep.format,
    mediaType: rep.mediaType,
    url: rep.url,
    byteLength: rep.byteLength,
    hash: rep.hash,
    sha256: rep.sha256,
    runtimes: rep.runtimes,
    compatibility: rep.compatibility,
    gltf: rep.gltf,
  };
}

/** A version list entry as the tools report it. */
export function versionSummaryOutput(id: string, v: ApiVersionSummary): z.infer<typeof versionSummarySchema> {
  return {
    version: v.version,
    createdAt: v.createdAt,
    publishedAt: v.publishedAt,
    prerelease: v.prerelease,
    recordHash: v.recordHash,
    retracted: v.retracted ?? null,
    pageUrl: v.pageUrl,
    manifestUrl: v.manifestUrl,
    resource: manifestResourceUri(id, v.version),
  };
}

/** The version's main type: that of its first representation. */
export function mainType(doc: Pick<ObjectVersion, 'manifest'>): string {
  return doc.manifest.representations[0]?.type ?? 'unknown';
}
