/**
 * The static search index: Pagefind reads the record pages (their `data-pagefind-*` parts: name, description, tags,
 * types, generator, license) as the build renders them, one index per shard (see search-shards.ts), and its files are
 * written through the build's writer, so that files whose bytes did not change (content-keyed names) are not written
 * again. Pagefind does not index incrementally, so every record page of a shard is handed to it on a build that changes
 * one of them; a shard whose pages are the last build's keeps its last index. Its binary comes with the npm package.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as pagefind from 'pagefind';
import pLimit from 'p-limit';
import { listFiles } from '../io/list-files.ts';
import type { OutputWriter } from './output-writer.ts';
import { pageFile } from './page-paths.ts';
import { searchShardDir } from './search-shards.ts';

/** Record pages read back from the site and not yet taken by Pagefind, at most. */
const PAGES_READ_AHEAD = 16;

/** What Pagefind writes for a shard other than the first: its index, not the scripts (the first shard's serve all). */
const SHARD_FILE = /^(pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|(index|fragment|filter)\/.+)$/;

/** What indexing did. */
export interface SearchIndexStats {
  pages: number;
  files: number;
  bytes: number;
  ms: number;
  /** Shards of the index, and those indexed again by this build (the others were kept). */
  shards: number;
  indexedShards: number;
}

/** An index being fed pages. */
export interface SearchIndexer {
  /** Hands one rendered page to Pagefind (it parses in its own process while the build goes on). */
  add(path: string, html: string): void;
  /** Hands a page that was not rendered again to Pagefind, read back from the site (at once, while others render). */
  addFromSite(path: string): void;
  /** Writes the index through the writer, or keeps the last one. */
  finish(): Promise<SearchIndexStats>;
}

/** The files of a shard the last build wrote (relative to its folder), or none when it has no entry file. */
async function lastShard(dir: string, n: number): Promise<Array<{ path: string; bytes: number }>> {
  // Shard 0's folder holds the folders of the others.
  const paths = (await listFiles(dir)).filter((path) => n !== 0 || !path.startsWith('shard-'));
  const files = await Promise.all(paths.map(async (path) => ({ path, bytes: (await stat(join(dir, path))).size })));
  return files.some((f) => f.path === 'pagefind-entry.json') ? files : [];
}

/** The shard digests the last build recorded, or none. */
async function lastDigests(file: string): Promise<string[]> {
  try {
    const digests: unknown = JSON.parse(await readFile(file, 'utf8'));
    return Array.isArray(digests) && digests.every((d) => typeof d === 'string') ? digests : [];
  } catch {
    return [];
  }
}

/**
 * Starts an index of the record pages written through `writer`, in shards: `digests` has one digest per shard of the
 * record pages it holds, and `shardOf` names the shard of a record page (undefined for other pages). A shard whose digest
 * is the one the last build recorded in `digestFile`, and whose files are still in the site, is kept as it is and its
 * pages are ignored. Every record page of the other shards must be handed in: those rendered with `add`, the others
 * with `addFromSite`.
 */
export async function startSearchIndex(writer: OutputWriter, digestFile: string, digests: string[], shardOf: (path: string) => number | undefined): Promise<SearchIndexer> {
  const started = performance.now();
  const last = await lastDigests(digestFile);
  const kept = await Promise.all(digests.map((digest, n) => (last.length === digests.length && last[n] === digest ? lastShard(writer.file(searchShardDir(n)), n) : [])));
  const indexes = new Map<number, Promise<pagefind.PagefindIndex>>();
  /** The Pagefind index of shard `n`, made on its first page (Pagefind's process starts with the first). */
  const indexOf = (n: number): Promise<pagefind.PagefindIndex> => {
    let index = indexes.get(n);
    if (!index) {
      index = pagefind.createIndex({ forceLanguage: 'en' }).then(({ index, errors }) => {
        if (!index) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
        return index;
      });
      indexes.set(n, index);
    }
    return index;
  };
  let pages = 0;
  const added: Array<Promise<pagefind.NewFileResponse>> = [];
  const addPage = (n: number, path: string, html: string): Promise<pagefind.NewFileResponse> => {
    const response = indexOf(n).then((index) => index.addHTMLFile({ url: `/${path}`, content: html }));
    added.push(response);
    return response;
  };
  /** The shard a page is indexed in by this build, or undefined when it is no record page or its shard is kept. */
  const indexedShard = (path: string): number | undefined => {
    const n = shardOf(path);
    if (n === undefined) return undefined;
    pages++;
    return kept[n]!.length ? undefined : n;
  };
  // A page read back stays in memory until Pagefind has taken it: reading waits for it, a few pages ahead.
  const read = pLimit(PAGES_READ_AHEAD);
  const reading: Array<Promise<unknown>> = [];
  return {
    add(path, html) {
      const n = indexedShard(path);
      if (n !== undefined) void addPage(n, path, html);
    },
    addFromSite(path) {
      const n = indexedShard(path);
      if (n !== undefined) reading.push(read(async () => addPage(n, path, await readFile(writer.file(pageFile(path)), 'utf8'))));
    },
    async finish() {
      let files = 0;
      let bytes = 0;
      try {
        await Promise.all(reading);
        // A shard that is not kept gets an index even when no page came (a registry without versions has its scripts).
        for (const [n, shard] of kept.entries()) if (!shard.length) void indexOf(n);
        const results = await Promise.all(added);
        const failed = results.flatMap((r) => r.errors);
        if (failed.length) throw new Error(`pagefind could not read the record pages: ${failed.join('; ')}`);
        for (const [n, shard] of kept.entries()) {
          if (indexes.has(n) || !shard.length) continue;
          for (const file of shard) writer.keep(`${searchShardDir(n)}/${file.path}`);
          files += shard.length;
          bytes += shard.reduce((sum, f) => sum + f.bytes, 0);
        }
        for (const [n, index] of [...indexes].sort(([a], [b]) => a - b)) {
          const { files: written, errors } = await (await index).getFiles();
          if (errors.length) throw new Error(`pagefind could not write ${searchShardDir(n)}/: ${errors.join('; ')}`);
          const own = n === 0 ? written : written.filter((f) => SHARD_FILE.test(f.path));
          await Promise.all(own.map((f) => writer.write(`${searchShardDir(n)}/${f.path}`, f.content)));
          files += own.length;
          bytes += own.reduce((sum, f) => sum + f.content.byteLength, 0);
        }
        await mkdir(dirname(digestFile), { recursive: true });
        await writeFile(digestFile, JSON.stringify(digests));
        return { pages, files, bytes, ms: performance.now() - started, shards: digests.length, indexedShards: indexes.size };
      } finally {
        if (indexes.size) await pagefind.close();
      }
    },
  };
}

/** Writes the figures of the last indexing to `<cacheDir>/search-index.json`, where `npm run bench` reads them. */
export async function recordSearchStats(cacheDir: string, stats: SearchIndexStats): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(cacheDir, 'search-index.json'), `${JSON.stringify(stats, null, 2)}\n`);
}
