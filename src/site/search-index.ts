/**
 * The static search index: Pagefind reads the record pages (their `data-pagefind-*` parts: name, description, tags,
 * types, generator, license) as the build renders them, and its files are written under `pagefind/` through the
 * build's writer, so that the files of pages that did not change (content-keyed names) are not written again. Pagefind
 * does not index incrementally, so every page is handed to it on every build that changes a record page; a build
 * that changes none keeps the last index. Its binary comes with the npm package.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as pagefind from 'pagefind';
import pLimit from 'p-limit';
import { listFiles } from '../io/list-files.ts';
import type { OutputWriter } from './output-writer.ts';
import { pageFile } from './page-paths.ts';

/** Where the index goes, under the site root. */
export const SEARCH_DIR = 'pagefind';

/** The pages indexed: every record page. */
export const SEARCH_PAGE = /^objects\/[^/]+\/versions\/[^/]+\/$/;

/** Record pages read back from the site and not yet taken by Pagefind, at most. */
const PAGES_READ_AHEAD = 16;

/** What indexing did. */
export interface SearchIndexStats {
  pages: number;
  files: number;
  bytes: number;
  ms: number;
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

/** The files of the index the last build wrote (relative to `dir`), or none when it has no entry file. */
async function lastIndex(dir: string): Promise<Array<{ path: string; bytes: number }>> {
  const files = await Promise.all((await listFiles(dir)).map(async (path) => ({ path, bytes: (await stat(join(dir, path))).size })));
  return files.some((f) => f.path === 'pagefind-entry.json') ? files : [];
}

/**
 * Starts an index of the record pages written through `writer`. `digest` stands for every record page of this build
 * (see page-digests.ts): when it is the one the last index was made from (kept in `digestFile`) and that index is still
 * in the site, the index is kept as it is and the pages handed in are ignored. Otherwise every record page must be
 * handed in: those rendered with `add`, the others with `addFromSite`.
 */
export async function startSearchIndex(writer: OutputWriter, digestFile: string, digest: string): Promise<SearchIndexer> {
  const started = performance.now();
  const unchanged = (await readFile(digestFile, 'utf8').catch(() => '')) === digest;
  const last = unchanged ? await lastIndex(writer.file(SEARCH_DIR)) : [];
  if (last.length) {
    let pages = 0;
    return {
      add: (path) => void (SEARCH_PAGE.test(path) && pages++),
      addFromSite: (path) => void (SEARCH_PAGE.test(path) && pages++),
      async finish() {
        for (const file of last) writer.keep(`${SEARCH_DIR}/${file.path}`);
        return { pages, files: last.length, bytes: last.reduce((n, f) => n + f.bytes, 0), ms: performance.now() - started };
      },
    };
  }
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
  const added: Array<Promise<pagefind.NewFileResponse>> = [];
  const addPage = (path: string, html: string): Promise<pagefind.NewFileResponse> => {
    const response = index.addHTMLFile({ url: `/${path}`, content: html });
    added.push(response);
    return response;
  };
  // A page read back stays in memory until Pagefind has taken it: reading waits for it, a few pages ahead.
  const read = pLimit(PAGES_READ_AHEAD);
  const reading: Array<Promise<unknown>> = [];
  return {
    add(path, html) {
      if (SEARCH_PAGE.test(path)) void addPage(path, html);
    },
    addFromSite(path) {
      if (SEARCH_PAGE.test(path)) reading.push(read(async () => addPage(path, await readFile(writer.file(pageFile(path)), 'utf8'))));
    },
    async finish() {
      try {
        await Promise.all(reading);
        const results = await Promise.all(added);
        const failed = results.flatMap((r) => r.errors);
        if (failed.length) throw new Error(`pagefind could not read the record pages: ${failed.join('; ')}`);
        const { files, errors: getErrors } = await index.getFiles();
        if (getErrors.length) throw new Error(`pagefind could not write ${SEARCH_DIR}/: ${getErrors.join('; ')}`);
        await Promise.all(files.map((f) => writer.write(`${SEARCH_DIR}/${f.path}`, f.content)));
        await mkdir(dirname(digestFile), { recursive: true });
        await writeFile(digestFile, digest);
        return { pages: results.length, files: files.length, bytes: files.reduce((n, f) => n + f.content.byteLength, 0), ms: performance.now() - started };
      } finally {
        await pagefind.close();
      }
    },
  };
}

/** Writes the figures of the last indexing to `<cacheDir>/search-index.json`, where `npm run bench` reads them. */
export async function recordSearchStats(cacheDir: string, stats: SearchIndexStats): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(cacheDir, 'search-index.json'), `${JSON.stringify(stats, null, 2)}\n`);
}
