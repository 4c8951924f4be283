/** A version about to be published, and the manifest and publication record made from it. */
import { createHash, randomUUID } from 'node:crypto';
import { representationUrl, versionDir } from '@aso-registry/core/format/paths';
import { hexToSri, sriOf } from '@aso-registry/core/format/sri';
import { MANIFEST_SCHEMA, type Manifest, type PublicationRecord, type Representation } from '@aso-registry/core/format/types';

/** One file of the new version with the representation fields that are not derived from its bytes. */
export interface VersionFile {
  rep: Pick<Representation, 'id' | 'type' | 'format' | 'mediaType'>;
  /** `provenance.outputs[].role`. */
  role: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
  /** Kept when the same bytes are published again (a correction); a new UUID otherwise. */
  assetId?: string;
}

/** Everything a new version declares. */
export interface VersionDraft {
  id: string;
  version: string;
  name: string;
  description: string;
  tags: string[];
  license?: string;
  generator?: string;
  createdAt: string;
  /** Provenance members besides `outputs` and `storage`, which are derived from the files. */
  provenance: Record<string, unknown>;
  representations: VersionFile[];
  preview?: VersionFile;
}

/** Lowercase hex SHA-256 of bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The manifest of a draft; hashes, lengths and URLs come from the files, `outputs` lists every file. */
export function buildManifest(draft: VersionDraft, registryUrl: string): Manifest {
  const url = (f: VersionFile): string => representationUrl(registryUrl, draft.id, draft.version, f.rep.id, f.rep.format);
  const rep = (f: VersionFile): Representation => ({
    ...f.rep,
    url: url(f),
    byteLength: f.bytes.length,
    hash: hexToSri(sha256Hex(f.bytes)),
  });
  const files = [...draft.representations, ...(draft.preview ? [draft.preview] : [])];
  const { source, ...rest } = draft.provenance;
  return {
    schema: MANIFEST_SCHEMA,
    id: draft.id,
    version: draft.version,
    name: draft.name,
    description: draft.description,
    tags: draft.tags,
    createdAt: draft.createdAt,
    ...(draft.license !== undefined ? { license: draft.license } : {}),
    ...(draft.generator !== undefined ? { generator: draft.generator } : {}),
    provenance: {
      ...(source !== undefined ? { source } : {}),
      outputs: files.map((f) => ({
        url: url(f),
        role: f.role,
        width: f.width,
        height: f.height,
        sha256: sha256Hex(f.bytes),
        assetId: f.assetId ?? randomUUID(),
        mediaType: f.rep.mediaType,
        byteLength: f.bytes.length,
      })),
      storage: { provider: 'git', sourceKey: `registry/${versionDir(draft.id, draft.version)}` },
      ...rest,
    },
    representations: draft.representations.map(rep),
    ...(draft.preview ? { preview: rep(draft.preview) } : {}),
  };
}

/** The exact bytes of `aso.object.json`: two-space JSON and a final newline. */
export function manifestBytes(manifest: Manifest): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
}

/** `publication.json` for the manifest bytes, published now by `publisher`. */
export async function buildPublication(bytes: Uint8Array, publisher: string, now = new Date()): Promise<PublicationRecord> {
  return {
    publicationId: randomUUID(),
    publishedAt: rfc3339(now),
    publisher,
    recordHash: await sriOf(bytes),
  };
}

/** A timestamp in UTC, to the second: `2026-01-02T03:04:05Z`. */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
