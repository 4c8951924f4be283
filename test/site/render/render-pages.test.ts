/** Rendering the sample registry's pages with the real page renderer: what is kept, what is rendered, what fails. */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'astro/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_URL } from '../../../src/registry/registry-url.ts';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { NOT_FOUND_PAGE } from '../../../src/site/data/page-paths.ts';
import { appRenderer, type PageRenderer } from '../../../src/site/render/page-renderer.ts';
import { renderPages } from '../../../src/site/render/render-pages.ts';
import { loadRenderer, rendererBundle } from '../../../src/site/render/renderer-bundle.ts';
import { provideSiteData } from '../../../src/site/data/site-data.ts';
import { repoRoot } from '../../support/build-site.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let app: App;
const pages = ['', 'objects/oak-chair/', 'objects/oak-chair/versions/1.0.0/', NOT_FOUND_PAGE];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-render-pages-'));
  provideSiteData(await loadSampleSite(join(work, 'cache')));
  app = await loadRenderer(await rendererBundle(repoRoot, DEFAULT_REGISTRY_URL));
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('renderPages', () => {
  it('renders each page to its index.html, the not-found page to 404.html', async () => {
    const out = join(work, 'one');
    const done = await renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), pages, new OutputWriter(out));
    expect(done).toEqual({ rendered: pages, kept: [] });
    expect(await readFile(join(out, 'objects', 'oak-chair', 'versions', '1.0.0', 'index.html'), 'utf8')).toContain('<h2 id="record-h">Publication record</h2>');
    expect(await readFile(join(out, '404.html'), 'utf8')).toContain('<h1>Not found</h1>');
  });

  it('keeps a page whose inputs are unchanged when its file is there, and renders it when the file is gone', async () => {
    const out = join(work, 'two');
    await renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), pages, new OutputWriter(out));
    await rm(join(out, 'objects', 'oak-chair', 'index.html'));
    const seen: string[] = [];
    const writer = new OutputWriter(out);
    const done = await renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), pages, writer, { unchanged: (p) => p.startsWith('objects/'), onPage: (p) => seen.push(p) });
    expect(done.kept).toEqual(['objects/oak-chair/versions/1.0.0/']);
    expect(done.rendered.sort()).toEqual(['', '404.html', 'objects/oak-chair/']);
    expect(seen.sort()).toEqual(done.rendered);
    expect(writer.paths.has('objects/oak-chair/versions/1.0.0/index.html')).toBe(true);
    // Only the removed page was written again: the others were rendered to the same bytes.
    expect(writer.written).toEqual(['objects/oak-chair/index.html']);
  });

  it('makes its renderer for the number of pages to render, and closes it at the end', async () => {
    const out = join(work, 'made');
    await renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), pages, new OutputWriter(out));
    const asked: number[] = [];
    let closed = 0;
    const make = async (count: number): Promise<PageRenderer> => {
      asked.push(count);
      return { ...appRenderer(app, DEFAULT_REGISTRY_URL), close: async () => void closed++ };
    };
    const done = await renderPages(make, pages, new OutputWriter(out), { unchanged: (p) => p.startsWith('objects/') });
    expect(done.kept.sort()).toEqual(['objects/oak-chair/', 'objects/oak-chair/versions/1.0.0/']);
    expect(asked).toEqual([2]);
    expect(closed).toBe(1);
    // Closed also when rendering fails.
    await expect(renderPages(make, ['objects/no-such-object/'], new OutputWriter(join(work, 'made-fails')))).rejects.toThrow('answered');
    expect(asked).toEqual([2, 1]);
    expect(closed).toBe(2);
    // No page to render: no renderer is made, and every page is kept.
    const kept = new OutputWriter(out);
    const none = await renderPages(make, pages, kept, { unchanged: () => true });
    expect(none).toEqual({ rendered: [], kept: pages });
    expect(asked).toEqual([2, 1]);
    expect(kept.written).toEqual([]);
  });

  it('fails naming the file when a page cannot be written', async () => {
    const out = join(work, 'three');
    await mkdir(join(out, 'objects', 'oak-chair', 'index.html'), { recursive: true });
    await expect(renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), pages, new OutputWriter(out))).rejects.toThrow(/EISDIR.*objects\/oak-chair\/index\.html/);
  });

  it('fails naming the page when a route does not render', async () => {
    await expect(renderPages(appRenderer(app, DEFAULT_REGISTRY_URL), ['objects/no-such-object/versions/9.9.9/'], new OutputWriter(join(work, 'four')))).rejects.toThrow(
      /^rendering \/objects\/no-such-object\/versions\/9\.9\.9\/ answered [45]\d\d instead of 200/,
    );
  });
});
