/**
 * What a build makes again: the digest of every page and of every version's documents (page-digests.ts) against those
 * the last build into the same output folder recorded. A cold build is a build whose plan keeps nothing.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { documentsKey, pageDigests, readPageDigests } from './page-digests.ts';
import { searchShards } from '../search/search-shards.ts';
import type { SearchShard } from '../search/search-index.ts';
import type { SiteData } from '../data/site-model.ts';

/** What a build renders and writes again, and what it may keep. */
export interface BuildPlan {
  /** The digest of every page (by site path) and of every version's documents: recorded for the next build. */
  digests: ReadonlyMap<string, string>;
  /** The file the digests are recorded in, per output folder (a cache may serve several). */
  digestsFile: string;
  /** The file the search index records its shards' digests in, per output folder. */
  searchDigestsFile: string;
  /** The shards of the search index with the digests of their record pages. */
  searchShards: readonly SearchShard[];
  /** True when the last build made this page from the same inputs (its file may still be kept only if it is there). */
  pageUnchanged(path: string): boolean;
  /** True when the last build made this version's documents from the same inputs. */
  documentsUnchanged(id: string, version: string): boolean;
}


/** Plans a build of `data` with the renderer `rendererDigest` into `outDir`. */
export async function planBuild(data: SiteData, rendererDigest: string, cacheDir: string, outDir: string): Promise<BuildPlan> {
  const outTag = createHash('sha256').update(outDir).digest('hex').slice(0, 16);
  const digestsFile = join(cacheDir, 'pages', `${outTag}.json`);
  const last = await readPageDigests(digestsFile);
  const digests = pageDigests(data, rendererDigest);
  const same = (key: string): boolean => last.has(key) && last.get(key) === digests.get(key);
  return {
    digests,
    digestsFile,
    searchDigestsFile: join(cacheDir, 'pages', `${outTag}.search`),
    searchShards: searchShards(digests, data.searchShards),
    pageUnchanged: same,
    documentsUnchanged: (id, version) => same(documentsKey(id, version)),
  };
}
