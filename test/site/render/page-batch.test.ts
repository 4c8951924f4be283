/** Pages packed into one buffer and back, and pages asked for one by one sent to be rendered together. */
import { describe, expect, it } from 'vitest';
import { batchedRenderer, packPages, unpackPages, type PackedPages } from '../../../src/site/render/page-batch.ts';
import type { RenderedPage } from '../../../src/site/render/page-renderer.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (page: RenderedPage): string => new TextDecoder().decode(page.body);

/** A batch renderer that renders a path to its own name and records the batches it was given. */
function recording(): { render: (paths: string[]) => Promise<PackedPages>; batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    render: async (paths) => {
      batches.push(paths);
      return packPages(paths.map((path) => ({ status: path.startsWith('missing') ? 404 : 200, body: bytes(`<p>${path}</p>`) })));
    },
  };
}

describe('packPages and unpackPages', () => {
  it('give back each page, status and bytes, in order, the empty page and multi-byte text included', () => {
    const pages = [
      { status: 200, body: bytes('<h1>Chaise</h1>') },
      { status: 404, body: bytes('') },
      { status: 200, body: bytes('<p>Stühle · 椅子</p>') },
    ];
    const packed = packPages(pages);
    expect(packed.bytes.byteLength).toBe(pages.reduce((sum, page) => sum + page.body.byteLength, 0));
    expect(packed.statuses).toEqual([200, 404, 200]);
    const back = unpackPages(packed);
    expect(back.map((page) => page.status)).toEqual([200, 404, 200]);
    expect(back.map(text)).toEqual(['<h1>Chaise</h1>', '', '<p>Stühle · 椅子</p>']);
    // Views of the one buffer, not copies.
    expect(back.every((page) => page.body.buffer === packed.bytes.buffer)).toBe(true);
  });

  it('packs into a buffer of its own, which the pages it came from do not share', () => {
    const body = bytes('<p>a</p>');
    const packed = packPages([{ status: 200, body }]);
    body.fill(0);
    expect(text(unpackPages(packed)[0]!)).toBe('<p>a</p>');
  });

  it('refuses a batch whose lengths do not match its bytes or its statuses', () => {
    const packed = packPages([{ status: 200, body: bytes('abc') }]);
    expect(() => unpackPages({ ...packed, lengths: [4] })).toThrow('a batch of pages holds 3 bytes, not the 4 its pages add up to');
    expect(() => unpackPages({ ...packed, statuses: [200, 200] })).toThrow('a batch of pages has 2 statuses for 1 bodies');
  });
});

describe('batchedRenderer', () => {
  it('sends the pages asked for in one turn together, at most a batch at a time, and answers each caller with its page', async () => {
    const batch = recording();
    const render = batchedRenderer(batch.render, 4);
    const paths = Array.from({ length: 10 }, (_, i) => `objects/o${i}/`);
    const pages = await Promise.all(paths.map((path) => render(path)));
    expect(pages.map(text)).toEqual(paths.map((path) => `<p>${path}</p>`));
    expect(batch.batches).toEqual([paths.slice(0, 4), paths.slice(4, 8), paths.slice(8)]);
  });

  it('sends a page asked for alone without waiting for others, and pages of later turns in batches of their own', async () => {
    const batch = recording();
    const render = batchedRenderer(batch.render, 16);
    expect(text(await render('a/'))).toBe('<p>a/</p>');
    const later = await Promise.all([render('missing/'), render('b/')]);
    expect(later.map((page) => page.status)).toEqual([404, 200]);
    expect(batch.batches).toEqual([['a/'], ['missing/', 'b/']]);
  });

  it('fails every page of a batch that fails, with its error, and renders the next batch', async () => {
    let calls = 0;
    const render = batchedRenderer(async (paths) => {
      if (calls++ === 0) throw new Error('the page renderer cannot be loaded');
      return recording().render(paths);
    }, 8);
    const failed = await Promise.allSettled([render('a/'), render('b/')]);
    expect(failed.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'rendered'))).toEqual([
      'the page renderer cannot be loaded',
      'the page renderer cannot be loaded',
    ]);
    expect(text(await render('c/'))).toBe('<p>c/</p>');
  });

  it('fails the pages of a batch that comes back with another number of pages', async () => {
    const render = batchedRenderer(async (paths) => packPages(paths.slice(1).map(() => ({ status: 200, body: bytes('x') }))), 8);
    await expect(Promise.all([render('a/'), render('b/')])).rejects.toThrow('a batch of 2 pages came back with 1');
  });

  it('refuses a batch size below one page', () => {
    expect(() => batchedRenderer(recording().render, 0)).toThrow('a batch of pages holds at least one page, not 0');
  });
});
