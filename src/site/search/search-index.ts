/**
 * The static search index: Pagefind reads the record pages (their `data-pagefind-*` parts: name, description, tags,
 * types, generator, license, cut out of each page by search-document.ts) as the build renders them, one index per
 * shard (see search-shards.ts), and its files are written through the build's writer, so that files whose bytes did
 * not change (content-keyed names) are not written again. Pagefind does not index incrementally, so every record page
 * of a shard is handed to it on a build that changes one of them; a shard whose pages are the last build's keeps its
 * last index. Its binary comes with the npm package.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as pagefind from 'pagefind';
import pLimit from 'p-limit';
import { listFiles } from '../../io/list-files.ts';
import type { OutputWriter } from '../output/output-writer.ts';
import { pageFile } from '../data/page-paths.ts';
import { searchDocument } from './search-document.ts';
import { searchShardDir } from './search-shards.ts';

/** Record pages read back from the site and not yet taken by Pagefind, at most. */
const PAGES_READ_AHEAD = 16;

/** What Pagefind writes for a shard other than the first: its index, not the scripts (the first shard's serve all). */
const SHARD_FILE = /^(pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|(index|fragment|filter)\/.+)$/;

/** Pagefind's ready-made UIs, which the site does not ship: the search box draws its results itself (search-box.ts). */
const UI_FILE = /^pagefind-(ui|component-ui|modular-ui|highlight)\.(js|css)$/;

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
  /** Hands one rendered page (its UTF-8 bytes) to Pagefind (it parses in its own process while the build goes on). */
  add(path: string, page: Uint8Array): void;
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

/** `promise`, marked as handled: it is awaited later, and may fail before that without stopping the process. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
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

/** One shard of the index as the build plans it: the digest of its record pages, and their site paths in the order Pagefind takes them. */
export interface SearchShard {
  digest: string;
  paths: readonly string[];
}

/** A record page cut down for Pagefind, waiting for the pages before it in its shard's order. */
interface WaitingPage {
  path: string;
  content: string;
  resolve: (response: pagefind.NewFileResponse) => void;
  reject: (error: unknown) => void;
}

/**
 * Starts an index of the record pages written through `writer`, in `shards` (see search-shards.ts); `shardOf` names
 * the shard of a record page (undefined for other pages). A shard whose digest is the one the last build recorded in
 * `digestFile`, and whose files are still in the site, is kept as it is and its pages are ignored. Every record page of
 * the other shards must be handed in: those rendered with `add`, the others with `addFromSite`. A shard is written, and
 * Pagefind lets go of it, as soon as its last page is in: Pagefind holds the shards being filled, not the whole index.
 */
export async function startSearchIndex(
  writer: OutputWriter,
  digestFile: string,
  shards: readonly SearchShard[],
  shardOf: (path: string) => number | undefined,
): Promise<SearchIndexer> {
  const started = performance.now();
  const last = await lastDigests(digestFile);
  const same = (n: number): boolean => last.length === shards.length && last[n] === shards[n]!.digest;
  const kept = await Promise.all(shards.map((_, n) => (same(n) ? lastShard(writer.file(searchShardDir(n)), n) : [])));
  /**
   * The shards indexed by this build: Pagefind's index, its answers for the pages handed in, each page's place in the
   * shard's order, the pages waiting for an earlier one, and the place of the next page Pagefind takes (the shard is
   * complete when that is past its last page).
   */
  const filling = new Map<
    number,
    {
      index: Promise<pagefind.PagefindIndex>;
      added: Array<Promise<pagefind.NewFileResponse>>;
      place: Map<string, number>;
      waiting: Map<number, WaitingPage>;
      next: number;
    }
  >();
  const written: Array<Promise<{ files: number; bytes: number }>> = [];
  let pages = 0;

  /** Shard `n` as it is being filled, with a Pagefind index made on its first page (Pagefind starts with the first). */
  const shardState = (n: number) => {
    let state = filling.get(n);
    if (!state) {
      // Awaited when the shard is written; a shard that never gets a page to hand over must not fail the process first.
      const index = settledLater(
        pagefind.createIndex({ forceLanguage: 'en' }).then(({ index, errors }) => {
          if (!index) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
          return index;
        }),
      );
      const { paths } = shards[n]!;
      state = { index, added: [], place: new Map(paths.map((path, i) => [path, i])), waiting: new Map(), next: 0 };
      filling.set(n, state);
    }
    return state;
  };

  /** Writes shard `n` once every page is in, and lets Pagefind drop it. */
  const writeShard = async (n: number): Promise<{ files: number; bytes: number }> => {
    const state = shardState(n);
    const failed = (await Promise.all(state.added)).flatMap((r) => r.errors);
    state.added = []; // Pagefind's answers for the shard's pages are read: they need not stay for the rest of the build
    if (failed.length) throw new Error(`pagefind could not read the record pages: ${failed.join('; ')}`);
    const index = await state.index;
    const { files, errors } = await index.getFiles();
    if (errors.length) throw new Error(`pagefind could not write ${searchShardDir(n)}/: ${errors.join('; ')}`);
    await index.deleteIndex();
    const own = n === 0 ? files.filter((f) => !UI_FILE.test(f.path)) : files.filter((f) => SHARD_FILE.test(f.path));
    await Promise.all(own.map((f) => writer.write(`${searchShardDir(n)}/${f.path}`, f.content)));
    return { files: own.length, bytes: own.reduce((sum, f) => sum + f.content.byteLength, 0) };
  };

  /**
   * Hands a record page of shard `n` to Pagefind once every page before it in the shard's order is in. Pagefind's files
   * depend on the order it takes the pages in, and pages finish rendering in no fixed order: so the same pages make the
   * same index, byte for byte, in a cold build and in a rebuild that reads some of them back.
   */
  const addPage = (n: number, path: string, page: Uint8Array): Promise<pagefind.NewFileResponse> => {
    const state = shardState(n);
    const place = state.place.get(path);
    if (place === undefined || place < state.next || state.waiting.has(place)) {
      throw new Error(`record page /${path} is not one of search shard ${n}'s pages, or was handed in twice`);
    }
    // Only the parts Pagefind indexes: the same index for a fraction of the parsing (see search-document.ts).
    const content = searchDocument(page);
    const response = settledLater(new Promise<pagefind.NewFileResponse>((resolve, reject) => state.waiting.set(place, { path, content, resolve, reject })));
    for (let next = state.waiting.get(state.next); next; next = state.waiting.get(state.next)) {
      state.waiting.delete(state.next);
      state.next += 1;
      const { path: url, content: html, resolve, reject } = next;
      // Callbacks of one promise run in the order they were added: Pagefind gets the pages in this order.
      state.index.then((index) => index.addHTMLFile({ url: `/${url}`, content: html })).then(resolve, reject);
    }
    state.added.push(response);
    if (state.next === state.place.size) written.push(settledLater(writeShard(n)));
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
    add(path, page) {
      const n = indexedShard(path);
      if (n !== undefined) void addPage(n, path, page);
    },
    addFromSite(path) {
      const n = indexedShard(path);
      if (n !== undefined) reading.push(read(async () => addPage(n, path, await readFile(writer.file(pageFile(path))))));
    },
    async finish() {
      try {
        await Promise.all(reading);
        for (const [n, shard] of shards.entries()) {
          if (kept[n]!.length) continue;
          const state = filling.get(n);
          // A registry without versions has one empty shard: its index is Pagefind's scripts and an empty entry.
          if (shard.paths.length === 0 && !state) written.push(settledLater(writeShard(n)));
          else if (!state || state.next < shard.paths.length) {
            const got = state ? state.next + state.waiting.size : 0;
            throw new Error(`search shard ${n} got ${got} of its ${shard.paths.length} record pages; every record page of a shard indexed again must be handed in`);
          }
        }
        const done = await Promise.all(written);
        let files = done.reduce((sum, d) => sum + d.files, 0);
        let bytes = done.reduce((sum, d) => sum + d.bytes, 0);
        for (const [n, shard] of kept.entries()) {
          for (const file of shard) writer.keep(`${searchShardDir(n)}/${file.path}`);
          files += shard.length;
          bytes += shard.reduce((sum, f) => sum + f.bytes, 0);
        }
        await mkdir(dirname(digestFile), { recursive: true });
        await writeFile(digestFile, JSON.stringify(shards.map((s) => s.digest)));
        return { pages, files, bytes, ms: performance.now() - started, shards: shards.length, indexedShards: filling.size };
      } finally {
        // Every shard's promises are settled before Pagefind goes (a failed one must not be left unhandled).
        await Promise.allSettled(written);
        if (filling.size) await pagefind.close();
      }
    },
  };
}

/** Writes the figures of the last indexing to `<cacheDir>/search-index.json`, where `npm run bench` reads them. */
export async function recordSearchStats(cacheDir: string, stats: SearchIndexStats): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(cacheDir, 'search-index.json'), `${JSON.stringify(stats, null, 2)}\n`);
}
