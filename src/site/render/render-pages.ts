/** Renders every page of the site with the page renderer and hands each to the writer. */
import pMap from 'p-map';
import { NOT_FOUND_PAGE, pageFile } from '../data/page-paths.ts';
import type { OutputWriter } from '../output/output-writer.ts';
import type { PageRenderer } from './page-renderer.ts';

/** Rendered pages waiting to be written, at most: the writer keeps many writes in flight while rendering goes on. */
const PAGES_IN_WRITING = 512;

/** What rendering did: the pages rendered and the pages left as the last build wrote them. */
export interface RenderedPages {
  rendered: string[];
  kept: string[];
}

/** What a caller of `renderPages` hears of each page, and which pages it may keep. */
export interface RenderPagesOptions {
  onPage?: (path: string, body: Uint8Array) => void;
  onKeep?: (path: string) => void;
  unchanged?: (path: string) => boolean;
}

/**
 * Renders `paths` with a renderer and writes each page; `onPage` sees every rendered page's path and bytes. A page for
 * which `unchanged` says yes (its inputs are those of the last build) is kept as it is when its file is there, and
 * handed to `onKeep` (before any page renders). `source` is the renderer, or makes one for the number of pages to
 * render (and it is closed at the end).
 */
export async function renderPages(
  source: PageRenderer | ((pagesToRender: number) => Promise<PageRenderer>),
  paths: readonly string[],
  writer: OutputWriter,
  options: RenderPagesOptions = {},
): Promise<RenderedPages> {
  // Pages whose inputs are unchanged and whose files are there stay as they are (the look-ups all at once).
  const keep = await Promise.all(
    paths.map(async (path) => !!options.unchanged?.(path) && (await writer.has(pageFile(path)))),
  );
  const done = keepUnchanged(paths, keep, writer, options);
  // Nothing to render: no renderer is made (nor its bundle loaded, nor a thread started).
  if (!done.rendered.length) return done;
  // A renderer made here, for the number of pages it will render, is closed here.
  if (typeof source === 'function') {
    const renderer = await source(done.rendered.length);
    try {
      await renderAll(renderer, done.rendered, writer, options);
    } finally {
      await renderer.close();
    }
  } else await renderAll(source, done.rendered, writer, options);
  return done;
}

/** Keeps the pages `keep` says to keep (handing each to `onKeep`) and lists the others to render. */
function keepUnchanged(paths: readonly string[], keep: readonly boolean[], writer: OutputWriter, options: RenderPagesOptions): RenderedPages {
  const done: RenderedPages = { rendered: [], kept: [] };
  for (const [i, path] of paths.entries()) {
    if (!keep[i]) {
      done.rendered.push(path);
      continue;
    }
    writer.keep(pageFile(path));
    done.kept.push(path);
    options.onKeep?.(path);
  }
  return done;
}

/** Renders `paths` and writes each page. */
async function renderAll(renderer: PageRenderer, paths: readonly string[], writer: OutputWriter, options: RenderPagesOptions): Promise<void> {
  const writing = new Set<Promise<boolean>>();
  let failure: { error: unknown } | undefined;
  // Pages are taken from the list as the renderer frees up, not all queued at once: a queue of every page's task would
  // hold memory in proportion to the registry.
  await pMap(
    paths,
    async (path) => {
      if (failure) return;
      const { status, body } = await renderer.render(path);
      const expected = path === NOT_FOUND_PAGE ? 404 : 200;
      if (status !== expected) throw new Error(`rendering /${path} answered ${status} instead of ${expected}:\n${new TextDecoder().decode(body.subarray(0, 2000))}`);
      options.onPage?.(path, body);
      const write = writer.write(pageFile(path), body).catch((error: unknown) => {
        failure ??= { error };
        return false;
      });
      writing.add(write);
      void write.finally(() => writing.delete(write));
      // Rendering waits only when the disk is far behind, so that memory holds a bounded number of pages.
      while (writing.size > PAGES_IN_WRITING) await Promise.race(writing);
    },
    { concurrency: renderer.inFlight },
  );
  await Promise.all(writing);
  if (failure) throw failure.error;
}
