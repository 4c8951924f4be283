/** `createClient({ origin })`: reads the registry's JSON API at `<origin>/api/v1` and verifies what it returns. */
import type { ApiIndex, ApiObject, ApiObjectSummary, ApiVersion, ApiVersionSummary } from '@aso-registry/core/documents/api-types';
import { apiPaths, encodePath, toOrigin } from '@aso-registry/core/format/paths';
import schema from '@aso-registry/core/format/schema/aso-object-v0.1.schema.json' with { type: 'json' };
import type { Manifest } from '@aso-registry/core/format/types';
import { resolveVersion } from '@aso-registry/core/format/latest';
import { isExactVersion } from '@aso-registry/core/format/version';
import { isValidRange } from '@aso-registry/core/format/version-range';
import { assertIntegrityTarget, checkResponse, type IntegrityCheck, type IntegrityTarget } from './check-integrity.ts';
import { IntegrityError, InvalidResponseError, NetworkError, NotFoundError } from './errors.ts';
import { jsonEqual } from '@aso-registry/core/format/json-equal';
import { verifiedRepresentations } from './verified-representations.ts';
import { readCatalog, readIndex, readObject, readVersion } from './read-documents.ts';
import { get, getJson, type FetchLike } from './request.ts';
import { createSha256 } from './create-sha256.ts';
import { verifyLedgerEntry, type LedgerMode } from './verify-ledger.ts';
import { LEDGER_CHECKPOINT_PATH } from '@aso-registry/core/log/ledger';
import { parseCheckpointNote, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import type { VerifierKey } from '@aso-registry/core/log/signed-note';
import { LogError } from './errors.ts';
import { createRetractionCheck } from './retraction-check.ts';
import {
  consistencyFromTiles,
  fetchCheckpoint,
  pinnedKeys,
  readCheckpoint,
  verifyDocumentInLog,
  type CheckpointInfo,
  type LogContext,
  type LogMode,
  type LogVerification,
} from './log-check.ts';

/** How to reach the registry. */
export interface ClientOptions {
  /** The site's origin, `scheme://host[:port]`: the canonical registry, a preview or localhost. */
  origin: string;
  /** The `fetch` to use; the platform's by default. */
  fetch?: FetchLike;
  /**
   * The registry's canonical URL, whose links are rewritten to `origin`. Read once from
   * `<origin>/api/v1/index.json` when not given.
   */
  registryUrl?: string;
  /**
   * The registry's log key (`registry/log.pub`, `<name>+<key id>+<key>`), or several: checkpoints must be signed by
   * one of them. Without it, log proofs are still checked but a checkpoint's signature is only reported.
   */
  logKey?: string | readonly string[];
  /** A checkpoint seen before (as `checkpoint()` returned it): every later checkpoint must be proven to extend it. */
  checkpoint?: string;
  /** Publishers' keys to pin, by publisher name; other publishers' keys are read from the registry's `/publishers/`. */
  publisherKeys?: Record<string, string | readonly string[]>;
}

/** Options every call takes. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** Options of `getObject`. */
export interface GetObjectOptions extends RequestOptions {
  /**
   * Whether to check the version against the registry's append-only ledger (`/ledger.jsonl`):
   * `auto` (default) when the registry publishes one, `require` always, `skip` never.
   */
  ledger?: LedgerMode;
  /**
   * Whether to prove the version is in the transparency log (its inclusion proof against the signed checkpoint, its
   * publisher's signature, and that the checkpoint extends the last one this client saw): `auto` (default) when the
   * version carries a log proof, and always once `logKey` is pinned; `require` always; `skip` never.
   */
  log?: LogMode;
}

/**
 * A verified object version: the API document, whose `manifest` is parsed from the bytes that hash to
 * `publication.recordHash` and whose `representations` (the preview last) are the manifest's; `ledgerVerified` is true
 * when the whole ledger was read and vouched for that record hash (by default only for a version without a log proof);
 * `logVerified` is what the transparency log proved, or null.
 * `retractionVerified` is true when `retracted` was read from the retractions the checkpoint signed by a pinned log key
 * commits to; otherwise `retracted` is what the API document says.
 */
export type ObjectVersion = ApiVersion & { ledgerVerified: boolean; logVerified: LogVerification | null; retractionVerified: boolean };

/** What `verifyConsistency` proved. */
export interface ConsistencyCheck {
  /** The older tree size and the newer one. */
  from: number;
  to: number;
  /** The newer checkpoint. */
  checkpoint: CheckpointInfo;
}

/** The client returned by {@link createClient}. Its methods may be called detached (`const { getObject } = client`). */
export interface AsoClient {
  /** The origin the client reads from. */
  readonly origin: string;
  /** `<origin>/api/v1`. */
  readonly baseUrl: string;
  /**
   * One object version: `version` is an exact version, `latest` (the highest non-prerelease), or a
   * SemVer range resolved against the published versions. Resolves only after the manifest's bytes
   * were found to hash to the publication's record hash.
   */
  getObject(id: string, version?: string, options?: GetObjectOptions): Promise<ObjectVersion>;
  /**
   * Proves that a version is in the registry's log: its inclusion proof leads to the root of the current checkpoint,
   * whose signature is checked against the pinned log key, and its publisher's signature (if any) verifies. Also
   * proves that the checkpoint extends the last one this client saw. Throws {@link LogError} otherwise.
   */
  verifyInclusion(id: string, version?: string, options?: RequestOptions): Promise<LogVerification>;
  /**
   * Proves that the checkpoint `older` (a note as `checkpoint()` returns it) is a prefix of `newer` (default: the
   * registry's current checkpoint), with a consistency proof computed from the registry's tiles. Throws {@link LogError}
   * when the log was rolled back or rewritten.
   */
  verifyConsistency(older: string, newer?: string, options?: RequestOptions): Promise<ConsistencyCheck>;
  /** The newest checkpoint this client has verified (a note to keep and pass as `checkpoint` next time), or null. */
  checkpoint(): string | null;
  /** Fetches a representation's bytes and compares their length and SHA-256 with what it declares. */
  checkIntegrity(representation: IntegrityTarget, options?: RequestOptions): Promise<IntegrityCheck>;
  /** An object's published versions, newest first. */
  listVersions(id: string, options?: RequestOptions): Promise<ApiVersionSummary[]>;
  /** Every object of the registry. */
  listObjects(options?: RequestOptions): Promise<ApiObjectSummary[]>;
  /** `index.json`: the registry URL, the document locations and counts. */
  getIndex(options?: RequestOptions): Promise<ApiIndex>;
  /** A URL on the registry's canonical origin rewritten to the client's origin; other URLs are returned unchanged. */
  resolveUrl(url: string, options?: RequestOptions): Promise<string>;
}

/** A client for the registry served at `options.origin`. */
export function createClient(options: ClientOptions): AsoClient {
  const origin = normalizeOrigin(options?.origin);
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  if (typeof fetchFn !== 'function') throw new TypeError('createClient: fetch must be a function');
  const apiUrl = (path: string) => `${origin}/${encodePath(path)}`;
  let registryUrl: Promise<string> | undefined;
  if (options.registryUrl !== undefined) registryUrl = Promise.resolve(normalizeRegistryUrl(options.registryUrl));
  const logKeys = pinnedKeys(options.logKey, 'createClient: logKey');
  const publisherKeys = new Map<string, VerifierKey[]>(Object.entries(options.publisherKeys ?? {}).map(([name, keys]) => [name, pinnedKeys(keys, `createClient: publisherKeys.${name}`)]));
  const logContext = (signal?: AbortSignal): LogContext => ({ fetch: fetchFn, origin, resolveUrl: (u) => resolveUrl(u, { signal }), logKeys, publisherKeys, signal });
  /** The newest checkpoint verified so far: later ones must extend it. */
  let known: { checkpoint: Checkpoint; info: CheckpointInfo } | null = null;
  const refused = (error: unknown): TypeError => new TypeError(`createClient: checkpoint: ${(error as Error).message.replace(/^log check failed: /, '')}`);
  if (options.checkpoint !== undefined) {
    try {
      parseCheckpointNote(options.checkpoint);
    } catch (error) {
      throw refused(error);
    }
  }
  // The checkpoint option's signature is checked once, before the first call: every call waits for it.
  const started: Promise<void> =
    options.checkpoint === undefined
      ? Promise.resolve()
      : readCheckpoint(options.checkpoint, 'options.checkpoint', logKeys).then(
          (read) => {
            known = read;
          },
          (error: unknown) => {
            throw refused(error);
          },
        );
  started.catch(() => undefined);
  const retractions = started.then(() => createRetractionCheck(known?.checkpoint ?? null));
  retractions.catch(() => undefined);

  async function getIndex(opts: RequestOptions = {}): Promise<ApiIndex> {
    await started;
    const url = apiUrl(apiPaths.index());
    return readIndex(await getJson(fetchFn, url, opts.signal), url);
  }

  /** The canonical registry URL, read once (a failed read is tried again next time). */
  function canonicalUrl(): Promise<string> {
    if (!registryUrl) {
      const pending = getIndex().then((index) => index.registryUrl);
      registryUrl = pending;
      pending.catch(() => {
        if (registryUrl === pending) registryUrl = undefined;
      });
    }
    return registryUrl;
  }

  async function resolveUrl(url: string, opts: RequestOptions = {}): Promise<string> {
    let absolute: URL;
    try {
      absolute = new URL(url, `${origin}/`);
    } catch {
      throw new TypeError(`resolveUrl: ${JSON.stringify(url)} is not a URL`);
    }
    if (absolute.origin === origin) return absolute.href;
    opts.signal?.throwIfAborted();
    return toOrigin(absolute.href, await canonicalUrl(), origin);
  }

  async function fetchObject(id: string, signal?: AbortSignal): Promise<ApiObject> {
    assertId(id, 'id');
    const url = apiUrl(apiPaths.object(id));
    try {
      return readObject(await getJson(fetchFn, url, signal), url, id);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError(url, `no object "${id}" in the registry at ${origin} (${url}: not found)`);
      throw error;
    }
  }

  async function listVersions(id: string, opts: RequestOptions = {}): Promise<ApiVersionSummary[]> {
    await started;
    const { versions } = await fetchObject(id, opts.signal);
    // With a pinned log key, which versions are retracted is what the signed checkpoint commits to.
    if (logKeys.length) await (await retractions).list(id, versions, logContext(opts.signal));
    return versions;
  }

  async function listObjects(opts: RequestOptions = {}): Promise<ApiObjectSummary[]> {
    await started;
    // The catalog comes in pages: follow `next` (read from this origin) until the last, checking that each is the one expected.
    const objects: ApiObjectSummary[] = [];
    let url = apiUrl(apiPaths.objects());
    for (let expected = 1; ; expected++) {
      const page = readCatalog(await getJson(fetchFn, url, opts.signal), url);
      if (page.page !== expected) throw new InvalidResponseError(url, '/page', `must be ${expected} (the page after the one that linked here), got ${page.page}`);
      objects.push(...page.objects);
      if (page.next === null) return objects;
      url = await resolveUrl(page.next, opts);
    }
  }

  /** The API document of a version: `version` exact, `latest` or a range, resolved against the published versions. */
  async function fetchVersion(id: string, version: string, signal?: AbortSignal, onList?: (versions: ApiVersionSummary[]) => void): Promise<ApiVersion> {
    assertId(id, 'id');
    assertVersionSpec(version);
    let exact = version;
    let listed: ApiVersionSummary | undefined;
    if (!isExactVersion(version)) {
      const object = await fetchObject(id, signal);
      onList?.(object.versions);
      // A retracted version stays readable by its exact number, but `latest` and ranges skip it.
      // (unless every version is retracted, as the site's `latest` does).
      const active = object.versions.filter((v) => !v.retracted);
      const published = (active.length ? active : object.versions).map((v) => v.version);
      const found = resolveVersion(published, version);
      if (!found) {
        throw new NotFoundError(apiUrl(apiPaths.object(id)), `object "${id}" has no version matching "${version}" (published: ${published.join(', ') || 'none'})`);
      }
      exact = found;
      listed = object.versions.find((v) => v.version === found);
    }
    const url = apiUrl(apiPaths.version(id, exact));
    let doc: ApiVersion;
    try {
      doc = await readVersion(await getJson(fetchFn, url, signal), url, id, exact);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError(url, `object "${id}" has no published version ${exact} (${url}: not found)`);
      throw error;
    }
    if (listed && listed.recordHash !== doc.publication.recordHash) {
      throw new InvalidResponseError(url, '/publication/recordHash', `is ${doc.publication.recordHash} but the version list says ${listed.recordHash}`);
    }
    return doc;
  }

  /** Remembers a verified checkpoint after proving that it extends the one remembered before. */
  async function advance(current: { checkpoint: Checkpoint; info: CheckpointInfo }, signal?: AbortSignal): Promise<LogVerification['consistency']> {
    const before = known;
    if (!before) {
      known = current;
      return null;
    }
    const problem = await consistencyFromTiles(logContext(signal), before.checkpoint, current.checkpoint);
    if (problem) {
      throw new LogError(`${origin}/checkpoint`, `the checkpoint of ${current.checkpoint.size} entries does not extend the one of ${before.checkpoint.size} seen before: ${problem}`);
    }
    if (current.checkpoint.size >= (known?.checkpoint.size ?? 0)) known = current;
    return { from: before.checkpoint.size, to: current.checkpoint.size };
  }

  async function verifyLogOf(doc: ApiVersion, signal?: AbortSignal): Promise<LogVerification> {
    const ctx = logContext(signal);
    // The checkpoint first: one that does not extend the last one seen is the problem, whatever the version's proof says.
    const checkpointUrl = doc.log ? await resolveUrl(doc.log.checkpoint, { signal }) : `${origin}/checkpoint`;
    const current = await fetchCheckpoint(ctx, checkpointUrl);
    const consistency = await advance(current, signal);
    const { tree: _tree, ...proven } = await verifyDocumentInLog(doc, ctx, current);
    return { ...proven, consistency };
  }

  async function verifyInclusion(id: string, version = 'latest', opts: RequestOptions = {}): Promise<LogVerification> {
    await started;
    return verifyLogOf(await fetchVersion(id, version, opts.signal), opts.signal);
  }

  async function verifyConsistency(older: string, newer?: string, opts: RequestOptions = {}): Promise<ConsistencyCheck> {
    await started;
    const ctx = logContext(opts.signal);
    const old = await readCheckpoint(older, 'the older checkpoint', logKeys);
    const current = newer === undefined ? await fetchCheckpoint(ctx) : await readCheckpoint(newer, 'the newer checkpoint', logKeys);
    const problem = await consistencyFromTiles(ctx, old.checkpoint, current.checkpoint);
    if (problem) {
      throw new LogError(`${origin}/checkpoint`, `the checkpoint of ${current.checkpoint.size} entries does not extend the one of ${old.checkpoint.size}: ${problem}`);
    }
    return { from: old.checkpoint.size, to: current.checkpoint.size, checkpoint: current.info };
  }

  async function getObject(id: string, version = 'latest', opts: GetObjectOptions = {}): Promise<ObjectVersion> {
    await started;
    const { signal } = opts;
    let listed: ApiVersionSummary[] | null = null;
    const doc = await fetchVersion(id, version, signal, (versions) => (listed = versions));
    const docUrl = apiUrl(apiPaths.version(doc.id, doc.version));
    const manifest = await verifiedManifest(doc, signal);
    if (!jsonEqual(manifest, doc.manifest)) throw new InvalidResponseError(docUrl, '/manifest', `differs from the verified manifest at ${doc.manifestUrl}`);
    const representations = verifiedRepresentations(doc.representations, manifest as Manifest, docUrl);
    const logMode = opts.log ?? 'auto';
    // Once a log key is pinned, a mirror that drops the proof must not turn the check off.
    const requireLog = logMode === 'require' || (logMode === 'auto' && logKeys.length > 0);
    if (requireLog && !doc.log) throw new LogError(docUrl, `${doc.id}@${doc.version} carries no log proof`);
    const logVerified = logMode !== 'skip' && doc.log ? await verifyLogOf(doc, signal) : null;
    // The whole ledger is read only when the log could not vouch for the version (or when asked to).
    const ledgerMode = opts.ledger ?? 'auto';
    const ledgerVerified =
      ledgerMode === 'auto' && logVerified
        ? false
        : await verifyLedgerEntry(doc, ledgerMode, {
            fetch: fetchFn,
            checkpointUrl: apiUrl(LEDGER_CHECKPOINT_PATH),
            resolveUrl: (u) => resolveUrl(u, { signal }),
            signal,
          });
    // With a pinned log key, retractions come from the file the signed checkpoint commits to; the document and the list `latest` was resolved from must agree.
    const checked = logKeys.length && logMode !== 'skip' ? await (await retractions).version(doc, listed, logVerified, logContext(signal)) : null;
    return { ...doc, ...(checked && { retracted: checked.retracted }), manifest: manifest as Manifest, representations, ledgerVerified, logVerified, retractionVerified: checked !== null };
  }

  /** Fetches the manifest's own bytes, checks them against the record hash, and parses them. */
  async function verifiedManifest(doc: ApiVersion, signal?: AbortSignal): Promise<unknown> {
    const url = await resolveUrl(doc.manifestUrl, { signal });
    const response = await get(fetchFn, url, signal);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new NetworkError(url, response.status, `reading ${url} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const sha256 = createSha256();
    sha256.update(bytes);
    const actual = await sha256.digest();
    const expected = doc.publication.recordHash;
    if (actual !== expected) throw new IntegrityError(url, 'the manifest', { hash: expected }, { hash: actual, byteLength: bytes.byteLength });
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
    } catch (error) {
      throw new InvalidResponseError(url, '', 'is not JSON, although it matches the record hash', { cause: error });
    }
  }

  async function checkIntegrity(representation: IntegrityTarget, opts: RequestOptions = {}): Promise<IntegrityCheck> {
    await started;
    assertIntegrityTarget(representation);
    const url = await resolveUrl(representation.url, opts);
    const response = await get(fetchFn, url, opts.signal);
    return checkResponse(response, url, representation, opts.signal);
  }

  return {
    origin,
    baseUrl: apiUrl('api/v1'),
    getObject,
    verifyInclusion,
    verifyConsistency,
    checkpoint: () => known?.info.note ?? null,
    checkIntegrity,
    listVersions,
    listObjects,
    getIndex,
    resolveUrl,
  };
}

function normalizeOrigin(input: unknown): string {
  const url = parseHttpUrl(input, 'origin');
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new TypeError(`createClient: origin must be scheme://host[:port] with no path, query or fragment, got ${JSON.stringify(input)}`);
  }
  return url.origin;
}

function normalizeRegistryUrl(input: unknown): string {
  const url = parseHttpUrl(input, 'registryUrl');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseHttpUrl(input: unknown, field: string): URL {
  let url: URL | undefined;
  try {
    url = typeof input === 'string' ? new URL(input) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`createClient: ${field} must be an absolute http(s) URL, got ${JSON.stringify(input)}`);
  }
  return url;
}

const ID_RULE = schema.properties.id;
const ID_PATTERN = new RegExp(ID_RULE.pattern);

function assertId(id: unknown, field: string): asserts id is string {
  if (typeof id !== 'string' || id.length < ID_RULE.minLength || id.length > ID_RULE.maxLength || !ID_PATTERN.test(id)) {
    throw new TypeError(
      `${field} must be an object id (${ID_RULE.minLength} to ${ID_RULE.maxLength} characters matching ${ID_RULE.pattern}), got ${JSON.stringify(id)}`,
    );
  }
}

function assertVersionSpec(version: unknown): asserts version is string {
  const ok = typeof version === 'string' && version.trim() !== '' && (version === 'latest' || isExactVersion(version) || isValidRange(version));
  if (!ok) throw new TypeError(`version must be an exact version, "latest" or a SemVer range, got ${JSON.stringify(version)}`);
}
