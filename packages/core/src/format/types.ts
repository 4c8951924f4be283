/** The shapes of aso/object/v0.1 and the records around it. */

/** The schema identifier every manifest carries. */
export const MANIFEST_SCHEMA = 'aso/object/v0.1';

/** One file of an object version (also the shape of `preview`). */
export interface Representation {
  id: string;
  type: string;
  format: string;
  mediaType: string;
  url: string;
  byteLength: number;
  hash: string;
}

/** The manifest of one object version, `aso.object.json`. */
export interface Manifest {
  schema: typeof MANIFEST_SCHEMA;
  id: string;
  version: string;
  name: string;
  description: string;
  tags: string[];
  createdAt: string;
  license?: string;
  generator?: string;
  provenance: Record<string, unknown>;
  representations: Representation[];
  preview?: Representation;
}

/** `publication.json`, written once beside the manifest when a version is published. */
export interface PublicationRecord {
  publicationId: string;
  publishedAt: string;
  publisher: string;
  /** `sha256-<base64>` of the exact bytes of `aso.object.json`. */
  recordHash: string;
  /** On a signed publication: the ID of the publisher's key (8 hex digits); `publisher` is the key's name. */
  keyId?: string;
  /** On a signed publication: the publisher's Ed25519 signature of the version (see publication-signature.ts), base64. */
  signature?: string;
}

/** A world in `registry/worlds/<world-id>.json`: a set of exact object versions. */
export interface World {
  id: string;
  name: string;
  objects: Array<{ id: string; version: string }>;
}

/** What is expected of a file and what was found. */
export interface IntegrityResult {
  ok: boolean;
  byteLength: { expected: number; actual: number };
  hash: { expected: string; actual: string };
}
