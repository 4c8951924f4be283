/** What Pagefind is handed for a record page: only the marked parts, and the same index as the whole page gives. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../../src/io/list-files.ts';
import { searchDocument } from '../../../src/site/search/search-document.ts';
import { siteDir } from '../../support/site.ts';

describe('searchDocument', () => {
  it('keeps the html tag and each marked element whole, nested elements of its own name included', () => {
    const html =
      '<!DOCTYPE html><html lang="fr"><head><title>T</title><script>let a = "<div>";</script></head><body><nav>menu</nav>' +
      '<div class="x" data-pagefind-body><div><h1>Chaise</h1></div><br/><p>en chêne</p></div>' +
      '<section>viewer</section><dl><dt>Licence</dt><dd data-pagefind-body><a href="/l">CC0-1.0</a></dd></dl></body></html>';
    expect(searchDocument(html)).toBe(
      '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"></head><body>' +
        '<div class="x" data-pagefind-body><div><h1>Chaise</h1></div><br/><p>en chêne</p></div> ' +
        '<dd data-pagefind-body><a href="/l">CC0-1.0</a></dd></body></html>',
    );
  });

  it('keeps the image of the result, the first after the h1, where it stands among the marked elements', () => {
    const html =
      '<html><body><img src="/logo.png" alt="logo"><div data-pagefind-body><h1>Vase</h1></div>' +
      '<figure><img src="/t/vase.webp" alt="Preview of Vase"></figure><dd data-pagefind-body>CC0-1.0</dd><img src="/late.png"></body></html>';
    expect(searchDocument(html)).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div data-pagefind-body><h1>Vase</h1></div> ' +
        '<img src="/t/vase.webp" alt="Preview of Vase"> <dd data-pagefind-body>CC0-1.0</dd></body></html>',
    );
  });

  it('hands over the page as it is when it marks nothing, or when a marked element does not close', () => {
    const plain = '<html><body><main><h1>All of it</h1></main></body></html>';
    expect(searchDocument(plain)).toBe(plain);
    const unclosed = '<html><body><main data-pagefind-body><h1>Cut</h1></body></html>';
    expect(searchDocument(unclosed)).toBe(unclosed);
    // An attribute that only starts like the marker is no marker.
    const other = '<html><body><main data-pagefind-bodyguard><h1>x</h1></main></body></html>';
    expect(searchDocument(other)).toBe(other);
  });

  it('takes the marker only inside a tag: not in text, not across a `>`, with a `<` in an attribute value', () => {
    const html =
      '<html><body><p>say data-pagefind-body here</p><div title="a<b" data-pagefind-body><h1>A</h1></div>' +
      '<p data-pagefind-bodyx>no</p><i data-pagefind-body>i</i></body></html>';
    expect(searchDocument(html)).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div title="a<b" data-pagefind-body><h1>A</h1></div> ' +
        '<i data-pagefind-body>i</i></body></html>',
    );
    expect(searchDocument('data-pagefind-body<p data-pagefind-body>q</p>')).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p data-pagefind-body>q</p></body></html>',
    );
  });

  it('takes the image of the result after a whole `<h1>` tag, and a whole `<img>` tag', () => {
    const html = '<html><body><h1x>no</h1x><h1>T</h1><imgs src="a"><img src="b"><div data-pagefind-body>x</div></body></html>';
    expect(searchDocument(html)).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><img src="b"> <div data-pagefind-body>x</div></body></html>',
    );
  });

  it("reads a page's UTF-8 bytes as it reads its text, characters of several bytes included", async () => {
    const pages = [
      '<!DOCTYPE html><html lang="fr" data-titre="Été"><body><p>Ça</p><div data-pagefind-body><h1>Chaise 🪑 en chêne</h1><p>直す</p></div>' +
        '<figure><img src="/t/é.webp" alt="Aperçu"></figure><dd data-pagefind-body>CC0-1.0 ©</dd></body></html>',
      '<html><body><main><h1>Tout 🌳</h1></main></body></html>',
      '<html><body><main data-pagefind-body><h1>Coupé</h1></body></html>',
      await readFile(join(siteDir(), 'objects', 'oak-chair', 'versions', '1.0.0', 'index.html'), 'utf8'),
    ];
    for (const page of pages) expect(searchDocument(new TextEncoder().encode(page))).toBe(searchDocument(page));
    expect(searchDocument(new TextEncoder().encode(pages[0]!))).toContain('<h1>Chaise 🪑 en chêne</h1><p>直す</p>');
  });

  it('is far smaller than a record page of the sample site', async () => {
    const page = await readFile(join(siteDir(), 'objects', 'oak-chair', 'versions', '1.0.0', 'index.html'), 'utf8');
    const doc = searchDocument(page);
    expect(doc).toContain('data-pagefind-meta="title"');
    expect(doc).not.toContain('<script');
    expect(doc.length).toBeLessThan(page.length / 4);
  });
});

/** Pagefind's files for `pages` indexed in this order, by path, with what can be compared byte for byte. */
async function indexFiles(pages: Array<{ url: string; content: string }>): Promise<Map<string, Uint8Array>> {
  const { index } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error('pagefind did not start');
  for (const page of pages) {
    const { errors } = await index.addHTMLFile(page);
    expect(errors).toEqual([]);
  }
  const { files } = await index.getFiles();
  await index.deleteIndex();
  return new Map(files.map((f) => [f.path, f.content]));
}

describe('the index of search documents', () => {
  afterAll(() => pagefind.close());
  let whole: Map<string, Uint8Array>;
  let cut: Map<string, Uint8Array>;
  let recordPages: string[];
  beforeAll(async () => {
    const site = siteDir();
    recordPages = (await listFiles(join(site, 'objects'))).filter((p) => /\/versions\/[^/]+\/index\.html$/.test(p));
    const pages = await Promise.all(recordPages.map(async (p) => ({ url: `/objects/${p.replace(/index\.html$/, '')}`, html: await readFile(join(site, 'objects', p), 'utf8') })));
    whole = await indexFiles(pages.map((p) => ({ url: p.url, content: p.html })));
    cut = await indexFiles(pages.map((p) => ({ url: p.url, content: searchDocument(p.html) })));
  });

  it('has the same page fragments (text, title, filters, anchors of every page) and the same word index', () => {
    expect(recordPages.length).toBeGreaterThanOrEqual(8);
    // Fragment and index files are named by their content: the same names are the same bytes.
    const compared = (files: Map<string, Uint8Array>) => [...files.keys()].filter((p) => p.startsWith('fragment/') || p.startsWith('index/')).sort();
    expect(compared(cut)).toEqual(compared(whole));
    expect(compared(whole).filter((p) => p.startsWith('fragment/'))).toHaveLength(recordPages.length);
    for (const path of compared(whole)) expect(Buffer.from(cut.get(path)!).equals(Buffer.from(whole.get(path)!))).toBe(true);
    // The filter files hold the same filters (Pagefind orders their values differently from one run to the next).
    const filters = (files: Map<string, Uint8Array>) => [...files.keys()].filter((p) => p.startsWith('filter/')).length;
    expect(filters(cut)).toBe(filters(whole));
  });
});
