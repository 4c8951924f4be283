/** A registry of two objects with a tagged picture each, loaded as the build loads it: what the digest and plan tests start from. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSite } from '../../../src/site/data/load-site.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { pngBytes, tempRegistry, writeVersion } from '../../support/fixture-registry.ts';

const URL = 'https://registry.example.org';

/** A version's files: one PNG whose size makes its bytes differ from the other pictures'. */
export const picture = async (n: number) => [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes(8 + n, 8) }];

export interface TwoObjects {
  root: string;
  cache: string;
  load(): Promise<SiteData>;
  remove(): Promise<void>;
}

/** `alpha-object@1.0.0` (tag `wood`) and `beta-object@1.0.0` (tag `stone`), with a cache folder of their own. */
export async function twoObjects(prefix: string): Promise<TwoObjects> {
  const { parent, root } = await tempRegistry(prefix);
  const cache = await mkdtemp(join(tmpdir(), `${prefix}cache-`));
  await writeVersion(root, { id: 'alpha-object', version: '1.0.0', tags: ['wood'], files: await picture(1) });
  await writeVersion(root, { id: 'beta-object', version: '1.0.0', tags: ['stone'], files: await picture(2) });
  return {
    root,
    cache,
    load: () => loadSite({ registryRoot: root, registryUrl: URL, cacheDir: cache }),
    remove: async () => {
      await rm(parent, { recursive: true, force: true });
      await rm(cache, { recursive: true, force: true });
    },
  };
}
