/**
 * The static search index: Pagefind reads the built record pages (their `data-pagefind-*` parts: name, description,
 * tags, types, generator, license) and writes `pagefind/` beside them. Its binary comes with the npm package.
 * Pagefind's filter and meta files are not byte-for-byte reproducible (the same pages give other hashed names from one
 * run to the next), so `pagefind/` is the one part of a build that two builds of the same registry do not share.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// Imported up front: the config's modules cannot import anything new once the build is done. It starts nothing until used.
import * as pagefind from 'pagefind';
import { folderSize } from '../io/folder-size.ts';

/** Where the index goes, under the site root. */
export const SEARCH_DIR = 'pagefind';

/** The pages indexed: every record page. */
export const SEARCH_GLOB = 'objects/*/versions/*/index.html';

/** What indexing did. */
export interface SearchIndexStats {
  pages: number;
  files: number;
  bytes: number;
  ms: number;
}

/** Indexes the record pages of the site in `outDir` into `outDir/pagefind/`. */
export async function buildSearchIndex(outDir: string): Promise<SearchIndexStats> {
  const started = performance.now();
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
    if (!index) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: outDir, glob: SEARCH_GLOB });
    if (added.errors.length) throw new Error(`pagefind could not read the record pages: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: join(outDir, SEARCH_DIR) });
    if (written.errors.length) throw new Error(`pagefind could not write ${SEARCH_DIR}/: ${written.errors.join('; ')}`);
    const { bytes, files } = await folderSize(join(outDir, SEARCH_DIR));
    return { pages: added.page_count, files, bytes, ms: performance.now() - started };
  } finally {
    await pagefind.close();
  }
}

/** Writes the figures of the last indexing to `<cacheDir>/search-index.json`, where `npm run bench` reads them. */
export async function recordSearchStats(cacheDir: string, stats: SearchIndexStats): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(cacheDir, 'search-index.json'), `${JSON.stringify(stats, null, 2)}\n`);
}
