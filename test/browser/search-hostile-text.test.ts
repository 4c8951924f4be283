/**
 * The catalog's search box against a registry whose names, descriptions, tags and representation types are hostile
 * HTML: built for real, served by a plain static server, searched in Chromium. No payload runs, none becomes an
 * element, and every string is shown as the text it is, in results and in the filters; so too in a version's embed page,
 * its oEmbed document and its Embed button.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

/** Each payload records that it ran in `window.hostileRan` (and some also open a dialog). */
const ran = (who: string) => `(window.hostileRan=(window.hostileRan||[]).concat('${who}'))`;

const HOSTILE = {
  name: `<img src=x onerror="${ran('name')}"> Hostile vase`,
  description: `"><script>${ran('description')}</script> <a href="javascript:${ran('description-link')}">click</a> onerror`,
  tags: [
    `<img src=x onerror="${ran('tag')};alert(1)">`,
    `"><script>${ran('tag-script')}</script>`,
    `<a href="javascript:${ran('tag-link')}">tag link</a>`,
    `&lt;img src=x onerror=${ran('tag-escaped')}&gt;`,
  ],
  type: `<img src=x onerror="${ran('type')};alert(2)">`,
};
const ESCAPED = {
  name: `&lt;img src=x onerror=${ran('escaped-name')}&gt; Escaped lamp`,
  description: `&lt;script&gt;${ran('escaped-description')}&lt;/script&gt; &amp;lt;b&amp;gt; onerror javascript:${ran('scheme')}`,
  tags: [`&amp;lt;img src=x onerror=alert(3)&amp;gt;`, 'lamp'],
  type: `&lt;svg onload=${ran('escaped-type')}&gt;`,
};
const LINK = { name: `javascript:${ran('link-name')}`, description: 'A plain chair, onerror-free.', tags: ['chair'] };

let parent: string;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const registry = await tempRegistry('aso-search-hostile-');
  parent = registry.parent;
  const png = await pngBytes();
  const image = (type: string) => [{ id: 'photo', type, format: 'png', mediaType: 'image/png', bytes: png }];
  await writeVersion(registry.root, { id: 'hostile-vase', version: '1.0.0', name: HOSTILE.name, description: HOSTILE.description, tags: HOSTILE.tags, files: image(HOSTILE.type) });
  await writeVersion(registry.root, { id: 'escaped-lamp', version: '1.0.0', name: ESCAPED.name, description: ESCAPED.description, tags: ESCAPED.tags, files: image(ESCAPED.type) });
  await writeVersion(registry.root, { id: 'plain-chair', version: '1.0.0', name: LINK.name, description: LINK.description, tags: LINK.tags, files: image('image') });
  const built = await buildSite({ outDir: join(parent, 'dist'), registryDir: registry.root });
  if (built.code !== 0) throw new Error(`build failed:\n${built.stdout.slice(-3000)}\n${built.stderr.slice(-3000)}`);
  server = await serveStatic(join(parent, 'dist'));
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (parent) await rm(parent, { recursive: true, force: true });
});

/** The catalog, with every dialog it opens recorded (and dismissed). */
async function openCatalog(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d: Dialog) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${server.origin}/`);
  return { page, dialogs };
}

/** Types `term` into the search box and waits until `count` results are listed. */
async function search(page: Page, term: string, count: number): Promise<void> {
  const input = page.locator('#search input:not([type="checkbox"])').first();
  await input.waitFor();
  await input.fill(term);
  await page.waitForFunction(
    (n) => document.querySelectorAll('#search a[href*="/objects/"]').length === n && document.querySelectorAll('#search input[type="checkbox"]').length > 0,
    count,
  );
}

/** Opens every filter group, and waits until any image on the page has loaded or failed (so that its handlers have had their turn). */
async function openFilters(page: Page): Promise<void> {
  const closed = page.locator('#search details:not([open]) > summary');
  while ((await closed.count()) > 0) await closed.first().click();
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}

/**
 * What hostile markup would have left: elements made from it, handlers, script links, and payloads that ran. The search
 * box's own pictures are left out (a result's thumbnail, the icons of kinds and of the box), and held to what they may
 * be: a thumbnail's source is a file of this site, an icon is the one the page drew.
 */
async function traces(page: Page): Promise<{ elements: string[]; ran: unknown }> {
  return page.evaluate(() => {
    const own = [...document.querySelectorAll('#search img.search-result-image, #search svg.type-icon, #search svg.search-glass')];
    const strays = own.filter((el) =>
      el instanceof HTMLImageElement
        ? !/^\/(thumbnails|objects)\/[^<>"']+$/.test(el.getAttribute('src') ?? '') || el.attributes.length !== 5
        : el.querySelector('script, foreignObject, a, [onload], [onerror]') !== null,
    );
    return {
      elements: [
        ...document.querySelectorAll('#search img:not(.search-result-image), #search script, #search svg:not(.type-icon, .search-glass), #search iframe, #search [onerror], #search [onload], a[href^="javascript:" i]'),
        ...strays,
      ].map((el) => el.outerHTML),
      ran: (window as unknown as { hostileRan?: unknown }).hostileRan ?? null,
    };
  });
}

/** Waits until the one result listed is the page at `href`. */
async function onlyResult(page: Page, href: string): Promise<void> {
  await page.waitForFunction((h) => {
    const links = [...document.querySelectorAll('#search a[href*="/objects/"]')].map((a) => a.getAttribute('href'));
    return links.length === 1 && links[0] === h;
  }, href);
}

/** The text of every filter value the search box shows. */
const filterTexts = (page: Page) => page.locator('#search label').allTextContents();
/** The text of every result listed. */
const resultTexts = (page: Page) => page.locator('#search li').allTextContents();

describe('search over hostile names, descriptions, tags and types', () => {
  it('runs no payload and makes no element of one, whatever is searched, with the filters open', async () => {
    const { page, dialogs } = await openCatalog();
    for (const [term, count] of [['vase', 1], ['hostile', 3], ['onerror', 3], ['img', 2], ['script', 2], ['javascript', 3], ['lamp', 1]] as const) {
      await search(page, term, count);
      await openFilters(page);
      expect(await traces(page), `searching "${term}"`).toEqual({ elements: [], ran: null });
    }
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('shows names, tags and types as the text they are, and filters by a hostile tag', async () => {
    const { page, dialogs } = await openCatalog();
    await search(page, 'onerror', 3);
    await openFilters(page);
    const results = (await resultTexts(page)).join('\n');
    for (const text of [HOSTILE.name, ESCAPED.name, LINK.name]) expect(results).toContain(text);
    // Excerpts are the descriptions' own words, entities and brackets as written.
    expect(results).toContain(`&amp;lt;b&amp;gt;`);
    expect(results).toContain(`"><script>`);
    const labels = (await filterTexts(page)).map((l) => l.replace(/\s+/g, ' ').trim());
    for (const value of [...HOSTILE.tags, ...ESCAPED.tags, HOSTILE.type, ESCAPED.type, 'chair']) {
      expect(labels.some((l) => l.startsWith(`${value} (`)), `filter value ${value} in ${JSON.stringify(labels)}`).toBe(true);
    }
    // Checking the pre-escaped tag's box keeps the one version that carries that very string.
    await page.locator('#search label', { hasText: ESCAPED.tags[0]! }).click();
    await onlyResult(page, '/objects/escaped-lamp/versions/1.0.0/');
    await page.locator('#search label', { hasText: HOSTILE.tags[0]! }).click();
    await page.locator('#search label', { hasText: ESCAPED.tags[0]! }).click();
    await onlyResult(page, '/objects/hostile-vase/versions/1.0.0/');
    await openFilters(page);
    expect(await traces(page)).toEqual({ elements: [], ran: null });
    expect(dialogs).toEqual([]);
    await page.close();
  });
});

describe('the embed of a version with a hostile name', () => {
  it('keeps the name text in the oEmbed html, the embed page and the Embed button', { timeout: 120_000 }, async () => {
    const doc = (await (await fetch(`${server.origin}/objects/hostile-vase/versions/1.0.0/oembed.json`)).json()) as { title: string; html: string };
    expect(doc.title).toBe(`${HOSTILE.name} 1.0.0`);
    const { page, dialogs } = await openCatalog();
    // The browser's own parser finds one element in the html: the iframe, titled with the name as written.
    const parsed = await page.evaluate((html) => {
      const t = document.createElement('template');
      t.innerHTML = html;
      return [...t.content.querySelectorAll('*')].map((el) => [el.localName, el.getAttribute('title')]);
    }, doc.html);
    expect(parsed).toEqual([['iframe', `${HOSTILE.name} 1.0.0 (3D viewer)`]]);

    /** What a payload would leave on the page: a handler made of it, or its record that it ran. */
    const clean = async () => {
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
      return page.evaluate(() => ({ handlers: document.querySelectorAll('[onerror], [onload]').length, ran: (window as unknown as { hostileRan?: unknown }).hostileRan ?? null }));
    };
    await page.goto(`${server.origin}/objects/hostile-vase/versions/1.0.0/embed/`);
    // Its one file has a hostile type, which no runtime shows.
    await page.waitForFunction(() => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') === 'unsupported');
    expect(await page.locator('h1').textContent()).toBe(`${HOSTILE.name} 1.0.0`);
    expect(await clean()).toEqual({ handlers: 0, ran: null });
    await page.goto(`${server.origin}/objects/hostile-vase/versions/1.0.0/`, { waitUntil: 'domcontentloaded' });
    expect(await page.locator('[data-embed] textarea').inputValue()).toBe(doc.html);
    expect(await clean()).toEqual({ handlers: 0, ran: null });
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
