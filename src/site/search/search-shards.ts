/**
 * The search index in shards: Pagefind cannot add a page to an index, so one index over every record page would be
 * made again whole whenever one version comes. The record pages are split by object into a power-of-two number of
 * shards, each a Pagefind index of its own, and the search box merges them in the browser (Pagefind's `mergeIndex`).
 * A build then indexes again only the shards whose record pages changed. Shard 0 lives in `pagefind/` with Pagefind's
 * scripts; shard n in `pagefind/shard-n/`, with only its index files.
 */
import { createHash } from 'node:crypto';

/** Record pages a shard should hold, about: the default of `ASO_SEARCH_SHARD_PAGES`. */
export const SEARCH_SHARD_PAGES = 1000;

/** The most shards: each is one more request or so when the search box first searches. */
export const MAX_SEARCH_SHARDS = 64;

/** Where the index goes, under the site root: shard 0, Pagefind's scripts and the folders of the other shards. */
const SEARCH_DIR = 'pagefind';

/** A record page (the pages indexed), with its object id. */
const SEARCH_PAGE = /^objects\/([^/]+)\/versions\/[^/]+\/$/;

/** The pages a shard should hold: `ASO_SEARCH_SHARD_PAGES`, else {@link SEARCH_SHARD_PAGES}. */
export function searchShardPages(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ASO_SEARCH_SHARD_PAGES?.trim();
  if (!raw) return SEARCH_SHARD_PAGES;
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`ASO_SEARCH_SHARD_PAGES must be a whole number of record pages, at least 1 (not "${raw}")`);
  return Number(raw);
}

/** The shard an object's record pages go to, of `count` (a power of two): halving `count` merges shard n + count/2 into n. */
export function searchShardOf(objectId: string, count: number): number {
  return createHash('sha256').update(objectId).digest().readUInt32BE(0) % count;
}

/**
 * How many shards the record pages of these objects go to: the power of two that gives about `perShard` pages each
 * (at most {@link MAX_SEARCH_SHARDS}), halved until no shard is empty (an empty Pagefind index cannot be searched).
 * It changes only when the registry grows past a power of two of `perShard`, or when an object fills an empty shard.
 */
export function searchShardCount(objects: ReadonlyArray<{ id: string; versions: readonly unknown[] }>, perShard: number): number {
  const pages = objects.reduce((n, o) => n + o.versions.length, 0);
  let count = 1;
  while (count < MAX_SEARCH_SHARDS && pages > count * perShard) count *= 2;
  let filled = new Array<number>(count).fill(0);
  for (const o of objects) filled[searchShardOf(o.id, count)]! += 1;
  while (count > 1 && filled.includes(0)) {
    count /= 2;
    filled = filled.slice(0, count).map((n, i) => n + filled[i + count]!);
  }
  return count;
}

/** The folder of shard `n` under the site root. */
export function searchShardDir(n: number): string {
  return n === 0 ? SEARCH_DIR : `${SEARCH_DIR}/shard-${n}`;
}

/** The shard a site path goes to, or undefined when it is not a record page. */
export function searchShardOfPage(path: string, count: number): number | undefined {
  const id = SEARCH_PAGE.exec(path)?.[1];
  return id === undefined ? undefined : searchShardOf(id, count);
}

/**
 * Each shard's record pages: a digest of their paths and page digests (see page-digests.ts) and the number of shards,
 * and their paths in the order Pagefind is handed them (sorted). A shard whose digest is the last build's holds the
 * same pages as then.
 */
export function searchShards(pageDigests: ReadonlyMap<string, string>, count: number): Array<{ digest: string; paths: string[] }> {
  const paths: string[][] = Array.from({ length: count }, () => []);
  for (const path of pageDigests.keys()) {
    const n = searchShardOfPage(path, count);
    if (n !== undefined) paths[n]!.push(path);
  }
  return paths.map((shard) => {
    shard.sort();
    const lines = shard.map((path) => `${path} ${pageDigests.get(path)!}`);
    return { digest: createHash('sha256').update(`shards ${count}\n${lines.join('\n')}`).digest('hex'), paths: shard };
  });
}
