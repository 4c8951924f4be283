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
import { copyDecoders } from './decoders.ts';
import { copyLedgerFiles } from './ledger-site.ts';
import type { SignerKey } from '../core/signed-note.ts';
import { LOG_KEY_VARIABLES, signerKeyFromEnv } from '../io/signer-key.ts';
import { cacheDir, registryDir } from '../registry/registry-dir.ts';
import { loadRegistryKeys, type RegistryKeys } from '../registry/registry-keys.ts';
import { registryUrl } from '../registry/registry-url.ts';
import { checkSigningKey, writeLogFiles } from './log-files.ts';
import { readSiteLog } from './site-log.ts';
import { markBuildStart, markOutputComplete, markOutputIncomplete, removeStaleOutput } from './stale-output.ts';
import { writeHostFiles } from './host-files.ts';
import { buildSearchIndex, recordSearchStats } from './search-index.ts';

/** Copies the published bytes of `registry/` and the viewer's decoders into the build output once the pages are written. */
export function registrySite(): AstroIntegration {
  let marker: string | undefined;
  let configuredOutDir: string | undefined;
  let keys: RegistryKeys | undefined;
  let signer: SignerKey | null = null;
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
        // The log's private key is checked before any page is written: a wrong key stops the build at once.
        keys = await loadRegistryKeys(registryDir());
        signer = await signerKeyFromEnv(process.env, LOG_KEY_VARIABLES);
        checkSigningKey(signer, keys.logKey, process.env[LOG_KEY_VARIABLES.key]?.trim() ? LOG_KEY_VARIABLES.key : LOG_KEY_VARIABLES.file);
        marker = await markBuildStart(cacheDir());
        // The registry was checked before this hook; from here on the folder is written.
        if (configuredOutDir) await markOutputIncomplete(configuredOutDir);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const published = await copyPublishedFiles(registryDir(), outDir, cacheDir());
        const ledger = await copyLedgerFiles(registryDir(), outDir);
        await writeHostFiles(outDir);
        const siteLog = await readSiteLog(registryDir(), registryUrl(), keys!.logKey);
        const log = siteLog ? await writeLogFiles(siteLog, keys!, signer, registryDir(), outDir) : null;
        if (log?.signedBy) logger.info(`checkpoint of ${log.size} entries signed by ${log.signedBy}`);
        else if (log) {
          logger.warn(
            `checkpoint of ${log.size} entries is unsigned: set ${LOG_KEY_VARIABLES.key} or ${LOG_KEY_VARIABLES.file} to the log's private key to sign it` +
              (keys!.logKey ? '' : ' (npm run log -- keygen makes a key pair and registry/log.pub)'),
          );
        }
        // Draco, meshopt and Basis/KTX2 decoders: the viewer loads them from the site itself.
        const decoders = await copyDecoders(outDir);
        const keep = new Set([...published.paths, ...(log?.paths ?? []), ...decoders]);
        // The content layer leaves two empty module maps behind in static builds; a CDN has no use for them.
        await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((f) => rm(join(outDir, f), { force: true })));
        const stale = marker ? await removeStaleOutput(outDir, marker, keep) : 0;
        // The search index reads the record pages, so it comes after the stale sweep: pages of versions that are gone
        // are not indexed, and the last build's index files are gone before Pagefind writes the new ones.
        const search = await buildSearchIndex(outDir);
        await recordSearchStats(cacheDir(), search);
        await markOutputComplete(outDir);
        logger.info(
          `${published.paths.size} published files and thumbnails (${published.copied} copied, the rest unchanged)` +
            `${ledger.length ? `, ${ledger.join(', ')}` : ''}; search index of ${search.pages} record pages ` +
            `(${search.files} files, ${(search.bytes / 1e6).toFixed(1)} MB) in ${(search.ms / 1000).toFixed(1)} s; ${stale} stale files of the last build removed`,
        );
      },
    },
  };
}
