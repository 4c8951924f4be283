/** The facts of one verified version that an agent compares and filters on: metadata, files and the glTF inventory. */
import * as z from 'zod';
import type { ObjectVersion } from '@aso-registry/sdk';
import { mainType } from './version-shapes.ts';

export const versionFactsSchema = z.object({
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  license: z.string().nullable(),
  createdAt: z.string(),
  publishedAt: z.string(),
  publisher: z.string(),
  signed: z.boolean().describe('whether the publisher signed the version'),
  generator: z.string().nullable(),
  retracted: z.boolean(),
  type: z.string().describe('the type of the first representation'),
  representations: z.array(z.string()).describe('"<id>: <type> <format>, <bytes> bytes, <hash>", the preview last'),
  totalBytes: z.number().int(),
  triangles: z.number().int().nullable().describe('of the first glTF representation; null without one'),
  vertices: z.number().int().nullable(),
  drawCalls: z.number().int().nullable(),
  materials: z.number().int().nullable(),
  textures: z.number().int().nullable(),
  animations: z.number().int().nullable(),
  extensionsRequired: z.array(z.string()),
});

export type VersionFacts = z.infer<typeof versionFactsSchema>;

/** The facts of `doc`, read from its verified manifest and the registry's glTF inventory of each file. */
export function versionFacts(doc: ObjectVersion): VersionFacts {
  const m = doc.manifest;
  const gltf = doc.representations.find((r) => r.gltf)?.gltf ?? null;
  return {
    name: m.name,
    description: m.description,
    tags: m.tags,
    license: m.license ?? null,
    createdAt: m.createdAt,
    publishedAt: doc.publication.publishedAt,
    publisher: doc.publication.publisher,
    signed: doc.publication.signature !== undefined,
    generator: m.generator ?? null,
    retracted: Boolean(doc.retracted),
    type: mainType(doc),
    representations: doc.representations.map((r) => `${r.id}: ${r.type} ${r.format}, ${r.byteLength} bytes, ${r.hash}`),
    totalBytes: doc.representations.reduce((n, r) => n + r.byteLength, 0),
    triangles: gltf?.triangles ?? null,
    vertices: gltf?.vertices ?? null,
    drawCalls: gltf?.drawCalls ?? null,
    materials: gltf?.materials ?? null,
    textures: gltf?.textures ?? null,
    animations: gltf?.animations ?? null,
    extensionsRequired: gltf?.extensionsRequired ?? [],
  };
}

/** One fact that differs between two versions; for lists, what the second added and removed. */
export interface FactDifference {
  field: string;
  from: unknown;
  to: unknown;
  added?: string[];
  removed?: string[];
}

/** Every fact of `to` that differs from `from`, in the order of the facts. */
export function factDifferences(from: VersionFacts, to: VersionFacts): FactDifference[] {
  const out: FactDifference[] = [];
  for (const field of Object.keys(versionFactsSchema.shape) as Array<keyof VersionFacts>) {
    const a = from[field];
    const b = to[field];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (Array.isArray(a) && Array.isArray(b)) {
      out.push({ field, from: a, to: b, added: b.filter((x) => !a.includes(x)), removed: a.filter((x) => !b.includes(x)) });
    } else {
      out.push({ field, from: a, to: b });
    }
  }
  return out;
}
