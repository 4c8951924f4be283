/** The site data of the sample registry, loaded (checked, thumbnails made) as the build loads it. */
import { join } from 'node:path';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { loadSite } from '../../src/site/data/load-site.ts';
import type { SiteData } from '../../src/site/data/site-model.ts';
import { repoRoot } from './build-site.ts';

/** Loads the sample registry's site data with its caches in `cacheDir`. */
export function loadSampleSite(cacheDir: string): Promise<SiteData> {
  return loadSite({ registryRoot: join(repoRoot, 'registry'), registryUrl: DEFAULT_REGISTRY_URL, cacheDir });
}
