/**
 * `npm run build`: checks the registry, then writes the static site into the output folder, writing only the files
 * whose bytes changed since the last build and removing what that build left and this one does not make.
 *
 * Phases: the check (every file hashed and validated, or looked up in the content-keyed cache), thumbnails (made once
 * per image, cached by content), the page renderer (Astro's build of the site's code, cached by its digest), the pages
 * (rendered with Astro's `App` on render threads, several at once, and handed to Pagefind as they come), the
 * documents (agent.json, the JSON API, feeds, sitemap: straight from the core functions), the published bytes (copied,
 * or cloned where the file system can), the log (checkpoint and tiles), the search index, and the sweep of stale files.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pMap from 'p-map';
import type { SignerKey } from '../core/signed-note.ts';
import { LOG_KEY_VARIABLES, signerKeyFromEnv } from '../io/signer-key.ts';
import type { RegistryVersion } from '../registry/registry-model.ts';
import { loadRegistryKeys } from '../registry/registry-keys.ts';
import { PhaseClock, recordBuildPhases, type BuildPhases } from './build-phases.ts';
import { copyPublishedFiles, copyThumbnails } from './copy-published-files.ts';
import { copyThreadFrom, emptyOrAbsent, startEarlyCopies, type EarlyCopies } from './early-copies.ts';
import { copyDecoders } from './decoders.ts';
import { copyLedgerFiles } from './ledger-site.ts';
import { checkSite, type CheckedSite, type SiteLoadTimes } from './load-site.ts';
import { checkSigningKey, writeLogFiles } from './log-files.ts';
import { OutputWriter } from './output-writer.ts';
import { pagePaths } from './page-paths.ts';
import { appRenderer, type PageRenderer } from './page-renderer.ts';
import { renderPages, type RenderedPages } from './render-pages.ts';
import { renderPool, startRenderPool, type StartedRenderPool } from './render-pool.ts';
import { cachedRenderer, clientFiles, loadRenderer, rendererBundle, type RendererBundle } from './renderer-bundle.ts';
import { documentDigests, documentsKey, pageDigests, readPageDigests, writePageDigests } from './page-digests.ts';
import { recordSearchStats, startSearchIndex, type SearchIndexer } from './search-index.ts';
import { searchShardOfPage, searchShardPages, searchShards } from './search-shards.ts';
import { provideSiteData, type SiteData } from './site-data.ts';
import { indexDocuments, versionDocumentPaths, versionDocuments, versionPositions } from './site-documents.ts';
import { markOutputComplete, markOutputIncomplete, removeStaleOutput } from './stale-output.ts';

/** Versions whose documents are made and written at once (the writer has its own writes in flight). */
const DOCUMENT_VERSIONS_AT_ONCE = 64;

/** What a build needs. */
export interface BuildOptions {
  /** The project folder (astro.config.mjs, src/). */
  root: string;
  outDir: string;
  registryRoot: string;
  registryUrl: string;
  cacheDir: string;
  /** The environment the log's private key is read from. */
  env?: NodeJS.ProcessEnv;
  /** Progress and warnings, one line each. */
  info?: (line: string) => void;
  warn?: (line: string) => void;
  /** Threads that render pages, whatever their number; default `renderThreads()`. 0 renders in this thread. */
  renderThreads?: number;
}

/**
 * Pages to render below which, by default, they are rendered in the build's own thread: a render thread takes about a
 * second to start (its loader, the renderer, its copy of the site data) on a 2-core machine, longer than rendering a
 * few hundred pages here (a build of 100 versions, 133 pages: 2.0-2.1 s in this thread, 2.6 s with one render thread).
 */
export const PAGES_FOR_A_THREAD = 500;

/**
 * Render threads by default: one per core but the one this thread runs on (it writes the files, makes the documents and
 * feeds the search index meanwhile), none on a single core, and none for fewer than {@link PAGES_FOR_A_THREAD} pages
 * to render. `ASO_RENDER_THREADS` sets another number, whatever the pages.
 */
export function renderThreads(env: NodeJS.ProcessEnv = process.env, pagesToRender = Infinity): number {
  const raw = env.ASO_RENDER_THREADS?.trim();
  if (raw) {
    if (!/^\d+$/.test(raw)) throw new Error(`ASO_RENDER_THREADS must be a whole number of threads, 0 to render in the build's own thread (not "${raw}")`);
    return Number(raw);
  }
  return pagesToRender < PAGES_FOR_A_THREAD ? 0 : availableParallelism() - 1;
}

/**
 * The page renderer of a build: a pool of threads, or Astro's `App` in this thread when `threads` is 0. A pool started
 * during the check with as many threads is handed the data and used; one with another number is stopped.
 */
async function pageRenderer(data: SiteData, bundle: RendererBundle, origin: string, threads: number, started?: StartedRenderPool): Promise<PageRenderer> {
  if (started && started.threads === threads) {
    started.provide(data);
    return started;
  }
  await started?.close();
  if (threads === 0) return appRenderer(await loadRenderer(bundle), origin);
  return renderPool(data, { bundleDir: bundle.dir, origin, threads });
}

/** Builds the site; throws with a sentence naming the file and the problem when it cannot. */
export async function buildSite(opts: BuildOptions): Promise<BuildPhases> {
  const info = opts.info ?? ((): void => {});
  const warn = opts.warn ?? info;
  const env = opts.env ?? process.env;
  const clock = new PhaseClock();
  const threads = (pagesToRender: number): number => opts.renderThreads ?? renderThreads(env, pagesToRender);
  // The log's private key is checked before anything is read or written: a wrong key stops the build at once.
  const keys = await loadRegistryKeys(opts.registryRoot);
  const signer: SignerKey | null = await signerKeyFromEnv(env, LOG_KEY_VARIABLES);
  checkSigningKey(signer, keys.logKey, env[LOG_KEY_VARIABLES.key]?.trim() ? LOG_KEY_VARIABLES.key : LOG_KEY_VARIABLES.file);

  // The renderer does not depend on the registry: it is looked up in its cache by the digest of the code (about 0.1 s),
  // and built (when the code changed) while the registry is checked.
  const cached = await clock.time('renderer', () => cachedRenderer(opts.root, opts.registryUrl));
  const lookupMs = clock.ms.renderer;
  const renderer = cached.bundle ? Promise.resolve(cached.bundle) : clock.time('renderer', () => rendererBundle(opts.root, opts.registryUrl, cached.digest));
  renderer.catch(() => {}); // awaited below; a failure of the check is reported first
  // What the last build into this output folder was made from (a cache may serve several folders).
  const outTag = createHash('sha256').update(opts.outDir).digest('hex').slice(0, 16);
  const digestsFile = join(opts.cacheDir, 'pages', `${outTag}.json`);
  const last = await readPageDigests(digestsFile);
  // A build with no last build in this folder renders every page. When the check has listed versions enough for render
  // threads (and the renderer is ready), they start, and load the renderer while the check goes on: it leaves part of
  // the cores idle, and the threads' start (about 1.4-1.8 s before a first page at 10,000 versions) then holds up no page.
  let early: StartedRenderPool | undefined;
  threads(Infinity); // a wrong ASO_RENDER_THREADS stops the build here, not in the middle of the check
  const startEarly = (versions: number): void => {
    const builtRenderer = cached.bundle;
    if (early || last.size > 0 || !builtRenderer) return;
    const n = threads(versions);
    if (n <= 0) return;
    try {
      early = startRenderPool({ bundleDir: builtRenderer.dir, origin: opts.registryUrl, threads: n });
    } catch {
      // Called from the check, which would stop on an error here: threads that cannot start now are started (or fail,
      // saying why) when the pages are rendered.
      return;
    }
    info(`${n} render thread${n === 1 ? '' : 's'} started while the check goes on (a build with no last build here renders every page)`);
  };
  // A build into an output folder that holds nothing copies the published files while the check goes on (see
  // early-copies.ts); the folder is marked as being written just before the first copy.
  const writer = new OutputWriter(opts.outDir);
  const copyFrom = copyThreadFrom(env);
  let copies: EarlyCopies | undefined;
  if (copyFrom !== Infinity) {
    const out = await emptyOrAbsent(opts.outDir);
    if (out.empty) {
      const beforeStart = (): void => {
        markOutputIncomplete(opts.outDir);
        info('published files are copied on a thread while the check goes on (the output folder holds nothing yet)');
      };
      copies = startEarlyCopies(writer, { from: copyFrom, existed: out.existed, beforeStart });
    }
  }
  // The threads start as soon as the check has listed the versions, before it reads the first (the listing takes a
  // fraction of a second): this thread no longer checks the first 500 versions alone while the other core waits.
  const onListed = (versions: number): void => {
    startEarly(versions);
    copies?.expect(versions);
  };
  const onVersion = (checked: number, version: RegistryVersion): void => copies?.add(opts.registryRoot, version.manifest, checked);
  try {
    const times: SiteLoadTimes = { checkMs: 0, modelMs: 0 };
    let checkedSite: CheckedSite;
    try {
      checkedSite = await checkSite({ registryRoot: opts.registryRoot, registryUrl: opts.registryUrl, cacheDir: opts.cacheDir, warn, searchShardPages: searchShardPages(env), onListed, onVersion, onThumbnail: (path, file) => copies?.addFile(file, path) }, times);
    } catch (error) {
      // A registry problem leaves the output folder as the build found it.
      await copies?.discard();
      throw error;
    }
    const { data, thumbnails } = checkedSite;
    clock.ms.check = times.checkMs;
    clock.ms.model = times.modelMs;
    const versions = data.objects.reduce((n, o) => n + o.versions.length, 0);
    info(`${versions} versions of ${data.objects.length} objects checked`);
    const validated = checkedSite.validatedOnThreads;
    if (validated.files) info(`${validated.files} glTF files validated on ${validated.threads} thread${validated.threads === 1 ? '' : 's'} of their own while the check went on`);
    const bundle = await renderer;
    const rendererMs = clock.ms.renderer;
    // The look-up comes before the check; a build of the renderer overlaps it: only the part the check did not hide counts.
    clock.ms.renderer = lookupMs + Math.max(0, rendererMs - lookupMs - times.checkMs - times.modelMs);
    if (bundle.built) info(`page renderer built (code ${bundle.digest.slice(0, 12)})`);

    // From here on the output folder is written.
    markOutputIncomplete(opts.outDir);
    const copied = (await copies?.finish()) ?? new Set<string>();
    if (copies?.started) info(`${copied.size} published files and thumbnails copied while the check went on`);
    // Pages, documents, published bytes and the log are made at once, through the one writer (their phase times
    // overlap). The render threads set the pace of a cold build from here on, so they get their pages first: a build
    // with no last build here renders every page, and hands them over before it takes the digests (of the documents, of
    // the pages, of the search index's shards: about 1.2 s of this thread at 10,000 versions) and makes the documents.
    // Before, the render thread sat idle for about 4 s after the check while this thread did that work.
    const cold = last.size === 0;
    let digested = (): void => {};
    const digestsTaken = new Promise<void>((resolve) => (digested = resolve));
    // A rebuild takes the documents' digests first and makes what changed of them at once, while the last thumbnails
    // are made: documents do not show thumbnails.
    let documents = cold ? new Map<string, string>() : documentDigests(data, bundle.digest);
    const unchangedDocuments = (id: string, version: string): boolean => last.get(documentsKey(id, version)) === documents.get(documentsKey(id, version));
    const [{ pages, search, digests }] = await Promise.all([
      clock.time('pages', async () => {
        let digests = new Map<string, string>();
        let search: SearchIndexer | undefined;
        /** Pages rendered before the search index is started, handed to it then. */
        const beforeIndex: Array<[string, Uint8Array]> = [];
        let rendering: Promise<RenderedPages> | undefined;
        const render = (): Promise<RenderedPages> => {
          const started = renderPages((pagesToRender) => pageRenderer(data, bundle, opts.registryUrl, threads(pagesToRender), early), pagePaths(data), writer, {
            onPage: (path, body) => (search ? search.add(path, body) : void beforeIndex.push([path, body])),
            // The pages not rendered again go to the search index at once, so that Pagefind reads them while others render.
            onKeep: (path) => search!.addFromSite(path),
            unchanged: (path) => digests.has(path) && last.get(path) === digests.get(path),
          });
          // Awaited below; a failure meanwhile (the build stopping on another error) must not stop the process first.
          started.catch(() => {});
          return started;
        };
        try {
          // The pages show thumbnails: they, and their digests, wait for them.
          await clock.time('thumbnails', () => thumbnails);
          provideSiteData(data);
          if (cold) {
            rendering = render();
            // A turn of the event loop: the render threads get their first pages before this thread takes the digests.
            await new Promise((resolve) => setImmediate(resolve));
            documents = documentDigests(data, bundle.digest);
          }
          digests = pageDigests(data, bundle.digest, documents);
          const shards = data.searchShards;
          search = await startSearchIndex(writer, join(opts.cacheDir, 'pages', `${outTag}.search`), searchShards(digests, shards), (path) => searchShardOfPage(path, shards));
          for (const [path, body] of beforeIndex.splice(0)) search.add(path, body);
        } finally {
          digested();
        }
        const pages = await (rendering ?? render());
        await Promise.all((await clientFiles(bundle)).map((f) => writer.copy(f.from, f.path)));
        return { pages, search, digests };
      }),
      clock.time('documents', async () => {
        // In a cold build their digests are taken once the render threads have pages.
        if (cold) await digestsTaken;
        // A version's documents whose inputs are those of the last build (see page-digests.ts) are left as they are, when
        // their files are there. The others are made a few versions at a time, taken from the registry as the writer
        // frees up, so that memory holds the documents being written, not those (nor the tasks) of the whole registry.
        await Promise.all([
          pMap(
            versionPositions(data),
            async ({ id, version, objectIndex, versionIndex }) => {
              const paths = versionDocumentPaths(id, version);
              if (unchangedDocuments(id, version) && (await Promise.all(paths.map((p) => writer.has(p)))).every(Boolean)) {
                for (const p of paths) writer.keep(p);
                return;
              }
              await Promise.all(versionDocuments(data, objectIndex, versionIndex).map((d) => writer.write(d.path, d.body)));
            },
            { concurrency: DOCUMENT_VERSIONS_AT_ONCE },
          ),
          ...(await indexDocuments(data)).map((d) => writer.write(d.path, d.body)),
        ]);
      }),
      clock.time('bytes', async () => {
        await Promise.all([
          copyPublishedFiles(data, writer, copied),
          thumbnails.then(() => copyThumbnails(data, writer, copied)),
          copyLedgerFiles(opts.registryRoot, writer),
          // Draco, meshopt and Basis/KTX2 decoders: the viewer loads them from the site itself.
          copyDecoders(writer),
        ]);
      }),
      clock.time('log', async () => {
        if (!data.log) return;
        const log = await writeLogFiles(data.log, keys, signer, opts.registryRoot, writer);
        if (log.signedBy) info(`checkpoint of ${log.size} entries signed by ${log.signedBy}`);
        else {
          warn(
            `checkpoint of ${log.size} entries is unsigned: set ${LOG_KEY_VARIABLES.key} or ${LOG_KEY_VARIABLES.file} to the log's private key to sign it` +
              (keys.logKey ? '' : ' (npm run log -- keygen makes a key pair and registry/log.pub)'),
          );
        }
      }),
    ]);
    const stats = await clock.time('search', () => search.finish());
    await recordSearchStats(opts.cacheDir, stats);
    const removed = await clock.time('sweep', async () => removeStaleOutput(opts.outDir, writer.paths, writer.madeFolders));
    await markOutputComplete(opts.outDir);
    await writePageDigests(digestsFile, digests);
    const { files, written } = writer.counts();
    info(
      `${files} files in the site, ${written} written (the rest were unchanged), ${removed} stale files of the last build removed; ` +
        `${pages.rendered.length} pages rendered, ${pages.kept.length} unchanged; search index of ${stats.pages} record pages`,
    );
    const phases: BuildPhases = { ms: clock.ms, files, written, removed, rendererBuilt: bundle.built };
    await recordBuildPhases(opts.cacheDir, phases);
    return phases;
  } finally {
    // Stopped when it was not used (a failed check, nothing to render) or is still running (a failed build).
    await early?.close();
    await copies?.close();
  }
}
