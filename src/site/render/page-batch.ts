/**
 * Pages cross from a render thread to the build's thread in batches, their bytes end to end in one buffer: one message
 * and one transferred buffer for many pages, since posting, receiving and transferring a message per page costs CPU on
 * both threads (see docs/decisions/0007-renderer-compiled-once-and-render-threads.md).
 */
import type { RenderedPage } from './page-renderer.ts';

/** Rendered pages in the order asked for: each one's status and byte length, and their bytes one after another. */
export interface PackedPages {
  statuses: number[];
  lengths: number[];
  bytes: Uint8Array;
}

/** Packs `pages` into one buffer (a new one, which the caller may move to another thread). */
export function packPages(pages: readonly RenderedPage[]): PackedPages {
  let total = 0;
  for (const page of pages) total += page.body.byteLength;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const page of pages) {
    bytes.set(page.body, at);
    at += page.body.byteLength;
  }
  return { statuses: pages.map((page) => page.status), lengths: pages.map((page) => page.body.byteLength), bytes };
}

/** The pages of a packed batch, each body a view of the batch's buffer (no copy). */
export function unpackPages(packed: PackedPages): RenderedPage[] {
  if (packed.statuses.length !== packed.lengths.length) throw new Error(`a batch of pages has ${packed.statuses.length} statuses for ${packed.lengths.length} bodies`);
  const total = packed.lengths.reduce((sum, length) => sum + length, 0);
  if (total !== packed.bytes.byteLength) throw new Error(`a batch of pages holds ${packed.bytes.byteLength} bytes, not the ${total} its pages add up to`);
  let at = 0;
  return packed.statuses.map((status, i) => {
    const body = packed.bytes.subarray(at, at + packed.lengths[i]!);
    at += packed.lengths[i]!;
    return { status, body };
  });
}

/** A page asked for and not yet sent to be rendered. */
interface Waiting {
  path: string;
  resolve: (page: RenderedPage) => void;
  reject: (error: unknown) => void;
}

/**
 * Renders page by page through `renderBatch`, which renders many: the pages asked for in one turn of the event loop go
 * together, at most `size` a batch. A batch that fails fails each of its pages with its error.
 */
export function batchedRenderer(renderBatch: (paths: string[]) => Promise<PackedPages>, size: number): (path: string) => Promise<RenderedPage> {
  if (!Number.isInteger(size) || size < 1) throw new Error(`a batch of pages holds at least one page, not ${size}`);
  let waiting: Waiting[] = [];
  let scheduled = false;
  const send = (): void => {
    const batch = waiting;
    waiting = [];
    if (!batch.length) return;
    renderBatch(batch.map((page) => page.path))
      .then((packed) => {
        const pages = unpackPages(packed);
        if (pages.length !== batch.length) throw new Error(`a batch of ${batch.length} pages came back with ${pages.length}`);
        for (const [i, page] of batch.entries()) page.resolve(pages[i]!);
      })
      .catch((error: unknown) => {
        for (const page of batch) page.reject(error);
      });
  };
  return (path) =>
    new Promise<RenderedPage>((resolve, reject) => {
      waiting.push({ path, resolve, reject });
      if (waiting.length >= size) send();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          send();
        });
      }
    });
}
