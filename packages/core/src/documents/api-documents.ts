/** Builds the JSON documents of the site (API and agent.json) from checked registry data. Pure. */
import { latestRecord } from '../format/latest.ts';
import type {
  AgentDocument,
  ApiCatalog,
  ApiIndex,
  ApiLedgerCheckpoint,
  ApiLogInfo,
  ApiObject,
  ApiRepresentation,
  ApiVersion,
  ApiVersionSummary,
} from './api-types.ts';
import { reportLine, runtimeReports } from '../format/compatibility.ts';
import type { GltfInventory } from '../format/gltf-inventory.ts';
import { LEDGER_CHECKPOINT_PATH, LEDGER_FILE, type LedgerCheckpoint } from '../log/ledger.ts';
import { agentPath, API_BASE, apiPaths, manifestPath, objectPagePath, siteUrl, versionPagePath } from '../format/paths.ts';
import { RETRACTIONS_FILE, type Retracted } from '../log/retractions.ts';
import { sriToHex } from '../format/sri.ts';
import type { Manifest, PublicationRecord, Representation, World } from '../format/types.ts';
import type { VersionLog } from '../log/version-log.ts';
import { publisherKeysPath } from '../log/publication-signature.ts';
import { isPrerelease } from '../format/version.ts';
import { API_PAGE_SIZE, pageAt } from './paging.ts';
import { mcpAccess } from './mcp-access.ts';

/** One published version as the documents need it. */
export interface VersionRecord {
  manifest: Manifest;
  publication: PublicationRecord;
  /** Set when the version is retracted (`registry/retractions.jsonl`). */
  retracted?: Retracted | null;
  /** The version's inclusion proof in the log, when the registry keeps one. */
  log?: VersionLog | null;
  /** The inventory of each glTF representation, by representation id, as the registry check read it from the file. */
  gltf?: Record<string, GltfInventory>;
}

/** One object: its versions newest first, and its latest version. */
export interface ObjectRecord {
  id: string;
  latest: string;
  versions: VersionRecord[];
}

/** How to check the bytes, said once for every agent.json. */
const VERIFICATION_TEXT =
  'Fetch each representation url, check that its length equals byteLength and that sha256-<base64 of its SHA-256 digest> equals hash; the manifest itself must hash to recordHash.';

/**
 * Every representation of a version (then the preview) with its compatibility and, for glTF, its inventory (`gltf`,
 * null for other files): a glTF file whose required extensions a runtime lacks is not compatible with it.
 */
export function apiRepresentations(manifest: Manifest, gltf: Readonly<Record<string, GltfInventory>> = {}): ApiRepresentation[] {
  const reps: Array<{ rep: Representation; role: ApiRepresentation['role'] }> = manifest.representations.map((rep) => ({
    rep,
    role: 'representation',
  }));
  if (manifest.preview) reps.push({ rep: manifest.preview, role: 'preview' });
  return reps.map(({ rep, role }) => {
    const inventory = Object.hasOwn(gltf, rep.id) ? gltf[rep.id]! : null;
    // Every runtime's verdict, made once: the runtimes, the reports and the report line all read it.
    const reports = runtimeReports({ ...rep, gltf: inventory });
    return {
      id: rep.id,
      type: rep.type,
      format: rep.format,
      mediaType: rep.mediaType,
      url: rep.url,
      byteLength: rep.byteLength,
      hash: rep.hash,
      role,
      runtimes: reports.filter((r) => r.compatible).map((r) => r.runtime),
      reports,
      compatibility: reportLine(reports, rep.id),
      sha256: sriToHex(rep.hash),
      gltf: inventory,
    };
  });
}

/** The summary of a version in an object's version list. */
export function versionSummary(registryUrl: string, v: VersionRecord): ApiVersionSummary {
  const { id, version, createdAt } = v.manifest;
  return {
    version,
    createdAt,
    publishedAt: v.publication.publishedAt,
    prerelease: isPrerelease(version),
    recordHash: v.publication.recordHash,
    manifestUrl: siteUrl(registryUrl, manifestPath(id, version)),
    pageUrl: siteUrl(registryUrl, versionPagePath(id, version)),
    apiUrl: siteUrl(registryUrl, apiPaths.version(id, version)),
    retracted: v.retracted ?? null,
  };
}

/** `api/v1/objects/<id>/versions/<v>.json`. */
export function apiVersion(registryUrl: string, object: ObjectRecord, v: VersionRecord, worlds: readonly World[]): ApiVersion {
  const { id, version } = v.manifest;
  return {
    schema: 'aso/api/v1/version',
    id,
    version,
    latest: object.latest,
    manifest: v.manifest,
    publication: v.publication,
    manifestUrl: siteUrl(registryUrl, manifestPath(id, version)),
    agentUrl: siteUrl(registryUrl, agentPath(id, version)),
    pageUrl: siteUrl(registryUrl, versionPagePath(id, version)),
    representations: apiRepresentations(v.manifest, v.gltf),
    worlds: worldsReferencing(worlds, id, version).map((w) => ({ id: w.id, name: w.name })),
    retracted: v.retracted ?? null,
    log: v.log ?? null,
  };
}

/** `api/v1/objects/<id>.json`. */
export function apiObject(registryUrl: string, object: ObjectRecord): ApiObject {
  const latest = latestRecord(object);
  return {
    schema: 'aso/api/v1/object',
    id: object.id,
    name: latest.manifest.name,
    latest: object.latest,
    versions: object.versions.map((v) => versionSummary(registryUrl, v)),
    pageUrl: siteUrl(registryUrl, objectPagePath(object.id)),
  };
}

/** Page `n` of the catalog (`api/v1/objects.json` is page 1); `objects` in catalog order, newest publication first. */
export function apiCatalog(registryUrl: string, objects: readonly ObjectRecord[], n = 1, size = API_PAGE_SIZE): ApiCatalog {
  const page = pageAt(objects, size, n);
  const url = (k: number): string => siteUrl(registryUrl, apiPaths.objectsPage(k));
  return {
    schema: 'aso/api/v1/objects',
    page: page.number,
    pageCount: page.count,
    total: objects.length,
    prev: page.number > 1 ? url(page.number - 1) : null,
    next: page.number < page.count ? url(page.number + 1) : null,
    objects: page.items.map((o) => {
      const latest = latestRecord(o);
      return {
        id: o.id,
        name: latest.manifest.name,
        description: latest.manifest.description,
        tags: latest.manifest.tags,
        latest: o.latest,
        versions: o.versions.map((v) => v.manifest.version),
        pageUrl: siteUrl(registryUrl, objectPagePath(o.id)),
        apiUrl: siteUrl(registryUrl, apiPaths.object(o.id)),
      };
    }),
  };
}

/** `api/v1/index.json`; `log` says where the transparency log is, when the registry keeps one. */
export function apiIndex(registryUrl: string, objects: readonly ObjectRecord[], log: ApiLogInfo | null = null): ApiIndex {
  return {
    schema: 'aso/api/v1/index',
    registryUrl,
    objects: siteUrl(registryUrl, apiPaths.objects()),
    worlds: siteUrl(registryUrl, apiPaths.worlds()),
    objectTemplate: `${registryUrl}/${API_BASE}/objects/{id}.json`,
    versionTemplate: `${registryUrl}/${API_BASE}/objects/{id}/versions/{version}.json`,
    counts: { objects: objects.length, versions: objects.reduce((n, o) => n + o.versions.length, 0) },
    ledger: siteUrl(registryUrl, LEDGER_CHECKPOINT_PATH),
    log,
  };
}

/** How to check a version against the transparency log, said once in the index. */
const LOG_VERIFICATION_TEXT =
  'Fetch checkpoint: a C2SP tlog-checkpoint (origin, tree size, base64 root hash) signed as a C2SP signed note by key (pin your own copy). ' +
  "A version's log object holds its ledger line (entry), leafIndex and an RFC 9162 inclusionProof in the tree of treeSize = leafIndex + 1 entries (the tree right after its line, so the object never changes): " +
  "SHA-256(0x00 || entry) leads through it to the root of that tree, which a consistency proof shows to be a prefix of the checkpoint's; or prove the leaf in the checkpoint's tree directly. " +
  'A signed entry carries publisher, keyId and signature: an Ed25519 signature of "aso/publication/v1\n<id>@<version>\n<recordHash>\n" by a key of publisherKeys. ' +
  'The hash tiles under tile/ (C2SP tlog-tiles) give any inclusion or consistency proof, e.g. that an older checkpoint is a prefix of this one.';

/** The `log` member of `api/v1/index.json`. */
export function apiLogInfo(registryUrl: string, checkpointUrl: string, origin: string, key: string | null): ApiLogInfo {
  return {
    checkpoint: checkpointUrl,
    origin,
    tiles: `${registryUrl.replace(/\/+$/, '')}/`,
    key,
    publisherKeys: `${registryUrl.replace(/\/+$/, '')}/${publisherKeysPath('{publisher}')}`,
    verification: LOG_VERIFICATION_TEXT,
  };
}

/** `objects/<id>/versions/<v>/agent.json`. */
export function agentDocument(registryUrl: string, object: ObjectRecord, v: VersionRecord): AgentDocument {
  const m = v.manifest;
  return {
    schema: 'aso/agent/v0.1',
    id: m.id,
    version: m.version,
    name: m.name,
    description: m.description,
    tags: m.tags,
    license: m.license ?? null,
    recordHash: v.publication.recordHash,
    manifestUrl: siteUrl(registryUrl, manifestPath(m.id, m.version)),
    pageUrl: siteUrl(registryUrl, versionPagePath(m.id, m.version)),
    representations: apiRepresentations(m, v.gltf),
    versionsUrl: siteUrl(registryUrl, apiPaths.object(m.id)),
    latestVersion: object.latest,
    sdkBaseUrl: `${registryUrl}/${API_BASE}`,
    verification: VERIFICATION_TEXT,
    retracted: v.retracted ?? null,
    log: v.log ?? null,
    mcp: mcpAccess(registryUrl),
  };
}

/** How to check a version against the ledger, said once in the checkpoint. */
const LEDGER_VERIFICATION_TEXT =
  'Fetch url (ledger.jsonl). Each line is canonical JSON {seq, publicationId, id, version, recordHash, publishedAt, prev}; seq counts from 1 and prev is sha256-<base64> of the exact bytes of the line before (absent on line 1). ' +
  'The ledger must have size lines and the hash of its last line must equal head; a version is genuine when exactly one line names its id and version with its recordHash.';

/** `api/v1/ledger.json`: the ledger's size and head, and where the ledger and the retractions are. */
export function apiLedgerCheckpoint(registryUrl: string, checkpoint: LedgerCheckpoint | null, hasRetractions: boolean): ApiLedgerCheckpoint {
  return {
    schema: 'aso/api/v1/ledger',
    size: checkpoint?.size ?? 0,
    head: checkpoint?.head ?? null,
    url: checkpoint ? siteUrl(registryUrl, LEDGER_FILE) : null,
    retractionsUrl: hasRetractions ? siteUrl(registryUrl, RETRACTIONS_FILE) : null,
    verification: LEDGER_VERIFICATION_TEXT,
  };
}

/** The worlds that reference this exact version. */
export function worldsReferencing(worlds: readonly World[], id: string, version: string): World[] {
  return worlds.filter((w) => w.objects.some((o) => o.id === id && o.version === version));
}
