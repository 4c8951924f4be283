/**
 * Verifies a whole deployed registry from its origin, trusting only the log key: the checkpoint's signature, every
 * tile and entry bundle against the checkpoint's root, `/ledger.jsonl` as exactly the log's entries, every version's
 * inclusion proof (in its API document and its agent.json), every publisher signature, the manifest bytes against their
 * record hash, the files both documents list against the manifest, and every file's bytes against the manifest.
 * The package's `@aso-registry/sdk/verify-site` entry: an app that only reads objects does not carry it.
 */
import { CHECKPOINT_PATH } from '@aso-registry/core/log/checkpoint';
import { sameBytes } from '@aso-registry/core/log/merkle-proof';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { entryTiles, hashTiles, parseEntryBundle, tileData, tilePath } from '@aso-registry/core/log/tlog-tiles';
import type { ApiRepresentation } from '@aso-registry/core/documents/api-types';
import { agentPath } from '@aso-registry/core/format/paths';
import { createClient } from './client.ts';
import { AsoSdkError } from './errors.ts';
import { ledgerMatchesLog } from './ledger-matches-log.ts';
import { fetchCheckpoint, pinnedKeys, type CheckpointInfo } from './log-check.ts';
import { get, getJson, type FetchLike } from './request.ts';
import { verifiedRepresentations } from './verified-representations.ts';

/** How far a verification has come. */
export interface SiteProgress {
  done: number;
  total: number;
  /** What was checked last: `log` (the tree) or `<id>@<version>`. */
  item: string;
}

/** Options of {@link verifySite}. */
export interface VerifySiteOptions {
  /** The site's origin. */
  origin: string;
  /** The log's verifier key (or keys) to pin: the checkpoint must be signed by one. */
  logKey?: string | readonly string[];
  /** Accept an unsigned checkpoint (or no pinned key) and check everything else. */
  allowUnsigned?: boolean;
  fetch?: FetchLike;
  /** Versions checked at once; default 4. */
  concurrency?: number;
  onProgress?: (progress: SiteProgress) => void;
  signal?: AbortSignal;
}

/** What was verified, and every problem found. */
export interface SiteVerification {
  ok: boolean;
  problems: string[];
  checkpoint: CheckpointInfo | null;
  versions: number;
  /** Versions whose publisher signature verified. */
  signed: number;
  files: number;
  bytes: number;
  tiles: number;
}

const decoder = new TextDecoder();

/** Checks the site at `options.origin`; never throws for what the site serves (that is a problem), only for bad options. */
export async function verifySite(options: VerifySiteOptions): Promise<SiteVerification> {
  const logKeys = pinnedKeys(options.logKey, 'verifySite: logKey');
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const client = createClient({ origin: options.origin, fetch: fetchFn, ...(options.logKey !== undefined ? { logKey: options.logKey } : {}) });
  const origin = client.origin;
  const { signal } = options;
  const result: SiteVerification = { ok: false, problems: [], checkpoint: null, versions: 0, signed: 0, files: 0, bytes: 0, tiles: 0 };
  const problem = (what: string, error: unknown): void => {
    result.problems.push(`${what}: ${error instanceof AsoSdkError || error instanceof Error ? error.message : String(error)}`);
  };
  const ctx = { fetch: fetchFn, origin, resolveUrl: (u: string) => client.resolveUrl(u, { signal }), logKeys, publisherKeys: new Map(), signal };

  if (logKeys.length === 0 && !options.allowUnsigned) {
    result.problems.push('no log key given: pass the registry\'s log key (registry/log.pub) to verify the checkpoint, or allow an unsigned one');
    return result;
  }
  let checkpoint;
  try {
    checkpoint = await fetchCheckpoint(ctx, `${origin}/${CHECKPOINT_PATH}`);
  } catch (error) {
    problem(`${origin}/${CHECKPOINT_PATH}`, error);
    return result;
  }
  result.checkpoint = checkpoint.info;
  if (checkpoint.info.signature !== 'verified' && !options.allowUnsigned) {
    result.problems.push(`${origin}/${CHECKPOINT_PATH}: the checkpoint is ${checkpoint.info.signature}`);
    return result;
  }
  const size = checkpoint.checkpoint.size;

  let versions: Array<{ id: string; version: string }>;
  try {
    versions = (await client.listObjects({ signal })).flatMap((o) => o.versions.map((version) => ({ id: o.id, version })));
  } catch (error) {
    problem(`${origin}/api/v1/objects.json`, error);
    return result;
  }
  const total = versions.length + 2;
  let done = 0;
  const progress = (item: string): void => options.onProgress?.({ done: ++done, total, item });

  // The tree: every entry bundle and every hash tile must be what the checkpoint's root commits to.
  const leaves = new Map<string, number>();
  let entries: string[] | null = null;
  try {
    const lines: string[] = [];
    for (const tile of entryTiles(size)) {
      const url = `${origin}/${tilePath(tile)}`;
      const entries = parseEntryBundle(new Uint8Array(await (await get(fetchFn, url, signal)).arrayBuffer()));
      if (entries.length !== tile.width) throw new Error(`${url} holds ${entries.length} entries, not ${tile.width}`);
      lines.push(...entries.map((e) => decoder.decode(e)));
      result.tiles++;
    }
    const tree = MerkleTree.fromEntries(lines.map((l) => new TextEncoder().encode(l)));
    if (!sameBytes(tree.root(), checkpoint.checkpoint.rootHash)) throw new Error(`the ${size} entries of tile/entries/ do not hash to the checkpoint's root`);
    for (const tile of hashTiles(size)) {
      const url = `${origin}/${tilePath(tile)}`;
      const served = new Uint8Array(await (await get(fetchFn, url, signal)).arrayBuffer());
      if (!sameBytes(served, tileData(tree, tile))) result.problems.push(`${url}: is not the tile of the checkpoint's tree`);
      result.tiles++;
    }
    lines.forEach((line, i) => {
      const { id, version } = JSON.parse(line) as { id: string; version: string };
      leaves.set(`${id}@${version}`, i);
    });
    entries = lines;
  } catch (error) {
    problem('log tiles', error);
  }
  progress('log');
  result.problems.push(...(await ledgerMatchesLog({ ...ctx, checkpoint: checkpoint.checkpoint, entries })));
  progress('ledger');

  const listed = new Set(versions.map((v) => `${v.id}@${v.version}`));
  for (const key of leaves.keys()) if (!listed.has(key)) result.problems.push(`${key}: is in the log but not in the site's catalog`);

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < versions.length) {
      const { id, version } = versions[next++]!;
      const key = `${id}@${version}`;
      try {
        const doc = await client.getObject(id, version, { log: 'require', ledger: 'skip', signal });
        if (!leaves.has(key) && leaves.size) result.problems.push(`${key}: is not among the log's entries`);
        if (doc.logVerified?.publisher) result.signed++;
        const agentUrl = await client.resolveUrl(doc.agentUrl ?? `${origin}/${agentPath(id, version)}`, { signal });
        const agent = (await getJson(fetchFn, agentUrl, signal)) as { log?: unknown; recordHash?: unknown; representations?: unknown };
        if (JSON.stringify(agent.log) !== JSON.stringify(doc.log)) result.problems.push(`${agentUrl}: its log object differs from the API document's`);
        if (agent.recordHash !== doc.publication.recordHash) result.problems.push(`${agentUrl}: its recordHash differs from the publication's`);
        if (!Array.isArray(agent.representations) || !agent.representations.every((r) => typeof r === 'object' && r !== null)) {
          result.problems.push(`${agentUrl}: representations must be an array of objects`);
        } else {
          try {
            verifiedRepresentations(agent.representations as ApiRepresentation[], doc.manifest, agentUrl);
          } catch (error) {
            problem(key, error);
          }
        }
        // The bytes are checked against the manifest whose hash the log vouches for, not against what a document says.
        for (const rep of [...doc.manifest.representations, ...(doc.manifest.preview ? [doc.manifest.preview] : [])]) {
          const check = await client.checkIntegrity(rep, { signal });
          if (check.ok) {
            result.files++;
            result.bytes += check.byteLength.actual;
          } else {
            result.problems.push(`${key}: ${rep.id}: expected ${check.byteLength.expected} bytes ${check.hash.expected}, got ${check.byteLength.actual} bytes ${check.hash.actual}`);
          }
        }
        result.versions++;
      } catch (error) {
        problem(key, error);
      }
      progress(key);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  result.ok = result.problems.length === 0;
  return result;
}
