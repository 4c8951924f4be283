/**
 * `npm run build`: checks the registry, then writes the static site into the output folder, writing only the files
 * whose bytes changed since the last build and removing what that build left and this one does not make.
 *
 * One phase after another, each a function of what the ones before returned: check -> thumbnails -> renderer -> plan
 * (what changed since the last build) -> pages -> documents -> bytes -> log -> search index -> sweep. The page renderer
 * (Astro's build of the site's code, cached by its digest) does not depend on the registry: it is looked up, or built,
 * while the registry is checked, and the renderer phase waits for it.
 */
import type { SignerKey } from '@aso-registry/core/log/signed-note';
import { LOG_KEY_VARIABLES, signerKeyFromEnv } from '../../io/signer-key.ts';
import { threadSetting, threadsFor } from '../../io/worker-pool.ts';
import { gltfValidationOptions } from '../../registry/gltf-validation-threads.ts';
import type { RegistryKeys } from '../../registry/registry-keys.ts';
import { openRegistryBlobs } from '../../registry/registry-blobs.ts';
import { loadRegistryKeys } from '../../registry/registry-keys.ts';
import { planBuild, type BuildPlan } from './build-plan.ts';
import { PhaseClock, recordBuildPhases, type BuildPhases } from './build-phases.ts';
import { copyPublishedFiles, copyThumbnails } from './copy-published-files.ts';
import { copyDecoders } from './decoders.ts';
import { copyLedgerFiles } from './ledger-site.ts';
import { addThumbnails, checkSite } from '../data/load-site.ts';
import { checkSigningKey, writeLogFiles } from './log-files.ts';
import { OutputWriter } from '../output/output-writer.ts';
import { writePageDigests } from './page-digests.ts';
import { pagePaths } from '../data/page-paths.ts';
import { appRenderer, type PageRenderer } from '../render/page-renderer.ts';
import { renderPages, type RenderedPages } from '../render/render-pages.ts';
import { renderPool } from '../render/render-pool.ts';
import { clientFiles, loadRenderer, rendererBundle, type RendererBundle } from '../render/renderer-bundle.ts';
import { recordSearchStats, startSearchIndex, type SearchIndexer } from '../search/search-index.ts';
import { searchShardOfPage, searchShardPages } from '../search/search-shards.ts';
import { provideSiteData } from '../data/site-data.ts';
import type { SiteData } from '../data/site-model.ts';
import { markOutputComplete, markOutputIncomplete, removeStaleOutput } from '../output/stale-output.ts';
import { writeDocuments } from './write-documents.ts';

/** What a build needs. */
export interface BuildOptions {
  /** The project folder (astro.config.mjs, src/). */
  root: string;
  outDir: string;
  registryRoot: string;
  registryUrl: string;
  cacheDir: string;
  /** The environment the log's private key and the thread settings are read from. */
  env?: NodeJS.ProcessEnv;
  /** Progress and warnings, one line each. */
  info?: (line: string) => void;
  warn?: (line: string) => void;
  /** Threads that render pages, whatever their number; default `ASO_RENDER_THREADS`, else by the pages to render. 0 renders in this thread. */
  renderThreads?: number;
}

/** The variable that sets the number of render threads. */
const RENDER_THREADS_VARIABLE = 'ASO_RENDER_THREADS';

/** Builds the site; throws with a sentence naming the file and the problem when it cannot. */
export async function buildSite(opts: BuildOptions): Promise<BuildPhases> {
  const info = opts.info ?? ((): void => {});
  const warn = opts.warn ?? info;
  const env = opts.env ?? process.env;
  const clock = new PhaseClock();
  // Settings and the log's private key are read before anything else: a wrong one stops the build at once.
  const renderThreads = opts.renderThreads ?? threadSetting(RENDER_THREADS_VARIABLE, env);
  const threads = (pages: number): number => threadsFor(pages, renderThreads);
  const gltfThreads = gltfValidationOptions(env);
  const shardPages = searchShardPages(env);
  const keys = await loadRegistryKeys(opts.registryRoot);
  const signer: SignerKey | null = await signerKeyFromEnv(env, LOG_KEY_VARIABLES);
  checkSigningKey(signer, keys.logKey, env[LOG_KEY_VARIABLES.key]?.trim() ? LOG_KEY_VARIABLES.key : LOG_KEY_VARIABLES.file);

  // The renderer does not depend on the registry: it is found, or built, while the registry is checked.
  const renderer = rendererBundle(opts.root, opts.registryUrl);
  renderer.catch(() => {}); // awaited below; a problem of the registry is reported first

  const blobs = openRegistryBlobs(env, opts.cacheDir);
  const site = await clock
    .time('check', () =>
      checkSite({ registryRoot: opts.registryRoot, registryUrl: opts.registryUrl, cacheDir: opts.cacheDir, warn, searchShardPages: shardPages, gltfThreads, ...(blobs ? { blobs } : {}) }),
    )
    .finally(() => blobs?.close());
  const { data } = site;
  info(`${data.objects.reduce((n, o) => n + o.versions.length, 0)} versions of ${data.objects.length} objects checked`);
  const validated = site.validatedOnThreads;
  if (validated.files) info(`${validated.files} glTF files validated on ${validated.threads} thread${validated.threads === 1 ? '' : 's'} of their own`);
  await clock.time('thumbnails', () => addThumbnails(site, opts.cacheDir, warn));
  const bundle = await clock.time('renderer', () => renderer);
  if (bundle.built) info(`page renderer built (code ${bundle.digest.slice(0, 12)})`);
  const plan = await clock.time('plan', () => planBuild(data, bundle.digest, opts.cacheDir, opts.outDir));

  // From here on the output folder is written.
  markOutputIncomplete(opts.outDir);
  const writer = new OutputWriter(opts.outDir);
  provideSiteData(data);
  const search = await startSearchIndex(writer, plan.searchDigestsFile, plan.searchShards, (path) => searchShardOfPage(path, data.searchShards));
  const pages = await clock.time('pages', () => writePages(data, bundle, plan, writer, search, threads));
  await clock.time('documents', () => writeDocuments(data, plan, writer));
  await clock.time('bytes', () => copyBytes(data, bundle, opts.registryRoot, writer));
  await clock.time('log', () => writeLog(data, keys, signer, opts.registryRoot, writer, info, warn));
  const stats = await clock.time('search', () => search.finish());
  await recordSearchStats(opts.cacheDir, stats);
  const removed = await clock.time('sweep', async () => removeStaleOutput(opts.outDir, writer.paths, writer.madeFolders));
  await markOutputComplete(opts.outDir);
  await writePageDigests(plan.digestsFile, plan.digests);

  const { files, written } = writer.counts();
  info(
    `${files} files in the site, ${written} written (the rest were unchanged), ${removed} stale files of the last build removed; ` +
      `${pages.rendered.length} pages rendered, ${pages.kept.length} unchanged; search index of ${stats.pages} record pages`,
  );
  const phases: BuildPhases = { ms: clock.ms, files, written, removed, rendererBuilt: bundle.built };
  await recordBuildPhases(opts.cacheDir, phases);
  return phases;
}

/**
 * The pages phase: every page the plan does not keep is rendered (on render threads for many pages, in this thread
 * for a few) and written; each record page goes to the search index, rendered or kept.
 */
function writePages(data: SiteData, bundle: RendererBundle, plan: BuildPlan, writer: OutputWriter, search: SearchIndexer, threads: (pages: number) => number): Promise<RenderedPages> {
  const renderer = async (pages: number): Promise<PageRenderer> => {
    const n = threads(pages);
    return n === 0 ? appRenderer(await loadRenderer(bundle), data.registryUrl) : renderPool(data, { bundleDir: bundle.dir, origin: data.registryUrl, threads: n });
  };
  return renderPages(renderer, pagePaths(data), writer, {
    unchanged: (path) => plan.pageUnchanged(path),
    onKeep: (path) => search.addFromSite(path),
    onPage: (path, body) => search.add(path, body),
  });
}

/** The bytes phase: the published files, the thumbnails, the ledger, the viewer's decoders and the renderer's client files. */
async function copyBytes(data: SiteData, bundle: RendererBundle, registryRoot: string, writer: OutputWriter): Promise<void> {
  await copyPublishedFiles(data, writer);
  await copyThumbnails(data, writer);
  await copyLedgerFiles(registryRoot, writer);
  // Draco, meshopt and Basis/KTX2 decoders: the viewer loads them from the site itself.
  await copyDecoders(writer);
  await Promise.all((await clientFiles(bundle)).map((f) => writer.copy(f.from, f.path)));
}

/** The log phase: the checkpoint (signed when the log's private key is given) and its tiles, when the registry has a ledger. */
async function writeLog(data: SiteData, keys: RegistryKeys, signer: SignerKey | null, registryRoot: string, writer: OutputWriter, info: (line: string) => void, warn: (line: string) => void): Promise<void> {
  if (!data.log) return;
  const log = await writeLogFiles(data.log, keys, signer, registryRoot, writer);
  if (log.signedBy) {
    info(`checkpoint of ${log.size} entries signed by ${log.signedBy}`);
    return;
  }
  warn(
    `checkpoint of ${log.size} entries is unsigned: set ${LOG_KEY_VARIABLES.key} or ${LOG_KEY_VARIABLES.file} to the log's private key to sign it` +
      (keys.logKey ? '' : ' (npm run log -- keygen makes a key pair and registry/log.pub)'),
  );
}
