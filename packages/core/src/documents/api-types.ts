/** The documents of the static JSON API under `/api/v1` and of `agent.json`: the contract between the site, the SDK and agents. */
import type { Manifest, PublicationRecord, Representation } from '../format/types.ts';
import type { RuntimeReport } from '../format/compatibility.ts';
import type { GltfInventory } from '../format/gltf-inventory.ts';
import type { Retracted } from '../log/retractions.ts';
import type { VersionLog } from '../log/version-log.ts';
import type { McpAccess } from './mcp-access.ts';

export type { VersionLog };

/** Why and when a version was retracted (`registry/retractions.jsonl`); null when it is not. */
type ApiRetraction = Retracted;

/** A representation as the API and agent.json describe it. */
export interface ApiRepresentation extends Representation {
  role: 'representation' | 'preview';
  /** The runtimes that can load it, by id (empty when none can). */
  runtimes: string[];
  /** One report per runtime. */
  reports: RuntimeReport[];
  /** The joined report line, `<rep>/<runtime>: <report> | ...`. */
  compatibility: string;
  /** Lowercase hex of the same SHA-256 digest as `hash`. */
  sha256: string;
  /**
   * For glTF, what the file holds as gltf-validator reads it: triangles, vertices, draw calls, materials, textures,
   * animations, skins, `extensionsUsed` and `extensionsRequired`; null for other files.
   */
  gltf: GltfInventory | null;
}

/** One entry of an object's version list. */
export interface ApiVersionSummary {
  version: string;
  createdAt: string;
  publishedAt: string;
  prerelease: boolean;
  recordHash: string;
  manifestUrl: string;
  pageUrl: string;
  apiUrl: string;
  /** Set when the version is retracted: still published and verifiable, but skipped by `latest`. */
  retracted?: ApiRetraction | null;
}

/** `api/v1/index.json`: where everything is. */
export interface ApiIndex {
  schema: 'aso/api/v1/index';
  registryUrl: string;
  objects: string;
  worlds: string;
  objectTemplate: string;
  versionTemplate: string;
  counts: { objects: number; versions: number };
  /** URL of the ledger checkpoint, `api/v1/ledger.json`. */
  ledger?: string;
  /** The transparency log, when the registry keeps a ledger. */
  log?: ApiLogInfo | null;
}

/** Where a registry's transparency log is and how to check it. */
export interface ApiLogInfo {
  /** URL of the checkpoint (C2SP tlog-checkpoint, a signed note when the build had the log's key). */
  checkpoint: string;
  /** The checkpoint's origin line, the log's name. */
  origin: string;
  /** The URL under which `tile/<L>/<N>` and `tile/entries/<N>` are (C2SP tlog-tiles): the site root. */
  tiles: string;
  /** The log's verifier key as `registry/log.pub` commits it, or null. Clients should pin their own copy. */
  key: string | null;
  /** URL template of a publisher's public keys, `{publisher}` replaced by the publisher's name. */
  publisherKeys: string;
  /** How to check a version against the log. */
  verification: string;
}

/** `api/v1/ledger.json`: the checkpoint of the publication ledger, what a client checks `ledger.jsonl` against. */
export interface ApiLedgerCheckpoint {
  schema: 'aso/api/v1/ledger';
  /** Number of lines (publications) in the ledger. */
  size: number;
  /** SRI of the exact bytes of the last line (without its newline); null when there is no ledger. */
  head: string | null;
  /** URL of `ledger.jsonl`, or null when the registry publishes none. */
  url: string | null;
  /** URL of `retractions.jsonl`, or null when nothing is retracted. */
  retractionsUrl: string | null;
  /** How to verify a version against the ledger. */
  verification: string;
}

/** One entry of `api/v1/objects.json`. */
export interface ApiObjectSummary {
  id: string;
  name: string;
  description: string;
  tags: string[];
  latest: string;
  versions: string[];
  pageUrl: string;
  apiUrl: string;
}

/**
 * `api/v1/objects.json` and `api/v1/objects/page/<n>.json`: the catalog, newest publication first, in pages of a
 * fixed size; `next` is the URL of the following page (null on the last).
 */
export interface ApiCatalog {
  schema: 'aso/api/v1/objects';
  /** 1-based. */
  page: number;
  pageCount: number;
  /** Objects in the whole catalog. */
  total: number;
  prev: string | null;
  next: string | null;
  objects: ApiObjectSummary[];
}

/** `api/v1/objects/<id>.json`: one object and its versions, newest first. */
export interface ApiObject {
  schema: 'aso/api/v1/object';
  id: string;
  name: string;
  latest: string;
  versions: ApiVersionSummary[];
  pageUrl: string;
}

/** `api/v1/objects/<id>/versions/<version>.json`: one version with everything needed to verify it. */
export interface ApiVersion {
  schema: 'aso/api/v1/version';
  id: string;
  version: string;
  latest: string;
  manifest: Manifest;
  publication: PublicationRecord;
  manifestUrl: string;
  agentUrl: string;
  pageUrl: string;
  representations: ApiRepresentation[];
  worlds: Array<{ id: string; name: string }>;
  /** Set when the version is retracted: still published and verifiable, but skipped by `latest`. */
  retracted?: ApiRetraction | null;
  /** The version's inclusion proof in the transparency log; null when the registry keeps no ledger. */
  log?: VersionLog | null;
}

/** `objects/<id>/versions/<v>/agent.json`: discovery for agents that crawl JSON. */
export interface AgentDocument {
  schema: 'aso/agent/v0.1';
  id: string;
  version: string;
  name: string;
  description: string;
  tags: string[];
  license: string | null;
  recordHash: string;
  manifestUrl: string;
  pageUrl: string;
  representations: ApiRepresentation[];
  versionsUrl: string;
  latestVersion: string;
  sdkBaseUrl: string;
  verification: string;
  /** Set when the version is retracted: still published and verifiable, but skipped by `latest`. */
  retracted?: ApiRetraction | null;
  /** The version's inclusion proof in the transparency log; null when the registry keeps no ledger. */
  log?: VersionLog | null;
  /** How an agent reaches the registry's MCP server. */
  mcp: McpAccess;
}

;
