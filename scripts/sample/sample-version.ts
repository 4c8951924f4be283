/** A sample object version as the catalogue declares it, and how it becomes a manifest and a publication record. */
import { createHash } from 'node:crypto';
import { representationPath, representationUrl, versionDir } from '@aso-registry/core/format/paths';
import { hexToSri, sriOf } from '@aso-registry/core/format/sri';
import { MANIFEST_SCHEMA, type Manifest, type PublicationRecord, type Representation } from '@aso-registry/core/format/types';
import { manifestProblems } from '@aso-registry/core/format/validate-manifest';
import type { SampleFile, SampleFiles } from './sample-files.ts';

/** A record that replaces an earlier one whose published metadata was wrong. */
interface Correction {
  reason: string;
  sourceObject: { id: string; version: string };
  sourcePublicationId: string;
}

/** Everything fixed about one sample version: metadata, timestamps, UUIDs, and how to make its files. */
export interface SampleVersion {
  id: string;
  version: string;
  name: string;
  description: string;
  tags: string[];
  createdAt: string;
  license?: string;
  publication: { publicationId: string; publishedAt: string; publisher: string };
  provenance: {
    source: string;
    /** The subject of the prompt; the shared prefix is added in front. */
    prompt?: string;
    runId: string;
    generator: { model: string; version: string; parameters: Record<string, unknown> };
    correction?: Correction;
  };
  /** The asset UUID of each file, by representation id (and `preview`). */
  assets: Record<string, string>;
  files: () => Promise<SampleFiles>;
}

/** The prefix every sample prompt starts with. */
const PROMPT_PREFIX = 'Studio photograph of a single object on a plain backdrop: ';

/** Who provides the sample generators. */
const GENERATOR_PROVIDER = 'aso-registry sample script';

/** A version ready to write: paths relative to `registry/` and their exact bytes. */
export interface AssembledVersion {
  sample: SampleVersion;
  dir: string;
  manifest: Manifest;
  manifestBytes: Uint8Array;
  publication: PublicationRecord;
  publicationBytes: Uint8Array;
  files: Array<{ path: string; file: SampleFile; representation: Representation }>;
}

/** Pretty JSON (2 spaces) with a final newline, as every registry document is written. */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Makes the files of a version, declares them, and checks the manifest against aso/object/v0.1. */
export async function assembleVersion(sample: SampleVersion, registryUrl: string): Promise<AssembledVersion> {
  const { id, version } = sample;
  const made = await sample.files();
  const all = [...made.representations, ...(made.preview ? [made.preview] : [])];
  const ids = new Set<string>();
  const files: AssembledVersion['files'] = [];
  const outputs: Array<Record<string, unknown>> = [];
  for (const file of all) {
    if (ids.has(file.id)) throw new Error(`${id}@${version}: two files share the id "${file.id}"`);
    ids.add(file.id);
    const assetId = sample.assets[file.id];
    if (!assetId) throw new Error(`${id}@${version}: no asset UUID is declared for "${file.id}"`);
    const hex = sha256Hex(file.bytes);
    const url = representationUrl(registryUrl, id, version, file.id, file.format);
    const representation: Representation = {
      id: file.id,
      type: file.type,
      format: file.format,
      mediaType: file.mediaType,
      url,
      byteLength: file.bytes.byteLength,
      hash: hexToSri(hex),
    };
    files.push({ path: representationPath(id, version, file.id, file.format), file, representation });
    outputs.push({
      url,
      role: file.role,
      width: file.width,
      height: file.height,
      sha256: hex,
      assetId,
      mediaType: file.mediaType,
      byteLength: file.bytes.byteLength,
    });
  }
  for (const key of Object.keys(sample.assets)) {
    if (!ids.has(key)) throw new Error(`${id}@${version}: asset UUID declared for "${key}", which is not a file of the version`);
  }

  const p = sample.provenance;
  const generator = { model: p.generator.model, version: p.generator.version, provider: GENERATOR_PROVIDER, parameters: p.generator.parameters };
  const runManifest = { runId: p.runId, generator, outputs: outputs.map((o) => ({ assetId: o.assetId, sha256: o.sha256 })) };
  const provenance: Record<string, unknown> = {
    source: p.source,
    ...(p.prompt && { prompt: { prefix: PROMPT_PREFIX, source: p.prompt, effective: `${PROMPT_PREFIX}${p.prompt}` } }),
    outputs,
    storage: { provider: 'git', sourceKey: `registry/${versionDir(id, version)}` },
    pipeline: {
      runId: p.runId,
      manifestUrl: `https://jobs.example.org/v1/runs/${p.runId}/manifest.json`,
      manifestHash: sha256Hex(jsonBytes(runManifest)),
      orchestrator: 'make-sample-registry',
      schemaVersion: '1',
    },
    generator,
    ...(p.correction && { correction: p.correction }),
  };
  const reps = files.map((f) => f.representation);
  const preview = made.preview && reps.pop();
  const manifest: Manifest = {
    schema: MANIFEST_SCHEMA,
    id,
    version,
    name: sample.name,
    description: sample.description,
    tags: sample.tags,
    createdAt: sample.createdAt,
    ...(sample.license !== undefined && { license: sample.license }),
    generator: `${p.generator.model} ${p.generator.version}`,
    provenance,
    representations: reps,
    ...(preview && { preview }),
  };
  const problems = manifestProblems(manifest);
  if (problems.length) {
    const where = `${versionDir(id, version)}/aso.object.json`;
    throw new Error(`${where} would not be a valid aso/object/v0.1 manifest:\n${problems.map((q) => `  ${q.pointer || '/'}: ${q.message}`).join('\n')}`);
  }
  if (Date.parse(sample.publication.publishedAt) < Date.parse(sample.createdAt)) {
    throw new Error(`${id}@${version}: publishedAt ${sample.publication.publishedAt} is before createdAt ${sample.createdAt}`);
  }
  const manifestBytes = jsonBytes(manifest);
  const publication: PublicationRecord = { ...sample.publication, recordHash: await sriOf(manifestBytes) };
  return { sample, dir: versionDir(id, version), manifest, manifestBytes, publication, publicationBytes: jsonBytes(publication), files };
}
