/**
 * The Astro integration that finishes the static site: raw bytes and thumbnails beside the rendered pages. A rebuild
 * writes into the existing output folder: unchanged published files stay, and whatever the last build left that this
 * one did not write is removed at the end (stale-output.ts), so the result is the same as a build into an empty folder.
 * From its first write to its last the folder holds a marker; `npm run build` removes a folder left so by a failure.
 */
import type { AstroIntegration } from 'astro';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyPublishedFiles } from './copy-published-files.ts';
import { copyLedgerFiles } from './ledger-site.ts';
import { cacheDir, registryDir } from '../registry/registry-dir.ts';
import { markBuildStart, markOutputComplete, markOutputIncomplete, removeStaleOutput } from './stale-output.ts';

/** Copies the published bytes of `registry/` into the build output once the pages are written. */
export function registrySite(): AstroIntegration {
  let marker: string | undefined;
  let configuredOutDir: string | undefined;
  return {
    name: 'aso-registry-site',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { build: { emptyOutDir: false } } });
      },
      'astro:config:done': ({ config }) => {
        configuredOutDir = fileURLToPath(config.outDir);
      },
      'astro:build:start': async () => {
        marker = await markBuildStart(cacheDir());
        // The registry was checked before this hook; from here on the folder is written.
        if (configuredOutDir) await markOutputIncomplete(configuredOutDir);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const published = await copyPublishedFiles(registryDir(), outDir, cacheDir());
        const ledger = await copyLedgerFiles(registryDir(), outDir);
        // The content layer leaves two empty module maps behind in static builds; a CDN has no use for them.
        await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((f) => rm(join(outDir, f), { force: true })));
        const stale = marker ? await removeStaleOutput(outDir, marker, published.paths) : 0;
        await markOutputComplete(outDir);
        logger.info(
          `${published.paths.size} published files and thumbnails (${published.copied} copied, the rest unchanged)` +
            `${ledger.length ? `, ${ledger.join(', ')}` : ''}; ${stale} stale files of the last build removed`,
        );
      },
    },
  };
}
