/** The Astro integration that finishes the static site: raw bytes and thumbnails beside the rendered pages. */
import type { AstroIntegration } from 'astro';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyPublishedFiles } from './copy-published-files.ts';
import { copyLedgerFiles } from './ledger-site.ts';
import { cacheDir, registryDir } from './registry-dir.ts';

/** Copies the published bytes of `registry/` into the build output once the pages are written. */
export function registrySite(): AstroIntegration {
  return {
    name: 'aso-registry-site',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const { files } = await copyPublishedFiles(registryDir(), outDir, cacheDir());
        const ledger = await copyLedgerFiles(registryDir(), outDir);
        // The content layer leaves two empty module maps behind in static builds; a CDN has no use for them.
        await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((f) => rm(join(outDir, f), { force: true })));
        logger.info(`copied ${files} published files${ledger.length ? ` and ${ledger.join(', ')}` : ''}`);
      },
    },
  };
}
