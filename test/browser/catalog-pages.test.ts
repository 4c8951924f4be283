/**
 * The catalog, its search, the tag pages and the object pages of the built sample site in Chromium, at a desktop's and a
 * phone's size: uniform cards, one search result per object with its picture, sorts and filters, the object page's
 * latest release and versions, and the page checks every page is held to.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '@aso-registry/core/documents/format-date';
import type { Manifest } from '@aso-registry/core/format/types';
import { launchBrowser } from '../support/browser.ts';
import { layoutShift, recordLayoutShift, SCREENS, seriousAxeViolations, sidewaysOverflow } from '../support/page-quality.ts';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  server = await serveStatic(siteDir());
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The manifest of a sample version, as the registry holds it. */
async function manifest(id: string, version: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(repoRoot, 'registry', 'objects', id, 'versions', version, 'aso.object.json'), 'utf8')) as Manifest;
}

/** A page of the site in a new context of the given screen, with layout shifts recorded from its first paint. */
async function open(screen: { width: number; height: number }, path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: screen });
  const page = await context.newPage();
  await recordLayoutShift(page);
  await page.goto(`${server.origin}${path}`);
  await page.waitForLoadState('load');
  return { context, page };
}

/** Waits until every image of the page has loaded (or failed), and a frame has been drawn after. */
async function imagesSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The rounded sizes of the elements a selector finds. */
function sizes(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return `${Math.round(r.width)}x${Math.round(r.height)}`;
  }));
}

/** Types a query into the catalog's search box and waits until the message says how many objects it found. */
async function search(page: Page, term: string): Promise<void> {
  await page.locator('#search .search-input').fill(term);
  await page.locator('#search .search-message', { hasText: `for “${term}”` }).waitFor();
  await page.waitForFunction(() => {
    const message = document.querySelector('#search .search-message')?.textContent ?? '';
    const n = /^No /.test(message) ? 0 : Number.parseInt(message, 10);
    return document.querySelectorAll('#search .search-result').length === Math.min(n, 10);
  });
}

/** The objects listed by the search box, in order, as `<id>@<version>` of the version each is shown as. */
function listed(page: Page): Promise<string[]> {
  return page.locator('#search .search-result-link').evaluateAll((links) =>
    links.map((a) => /\/objects\/([^/]+)\/versions\/([^/]+)\//.exec(a.getAttribute('href') ?? '')!.slice(1).join('@')),
  );
}

describe('the catalog', () => {
  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`shows cards of one size on a ${name}, each picture in the same box, none upscaled, and does not move while loading`, async () => {
      const { context, page } = await open(screen, '/');
      await imagesSettled(page);
      const cards = await sizes(page, 'li.card');
      expect(cards).toHaveLength(5);
      expect(new Set(cards).size, cards.join(' ')).toBe(1);
      const boxes = await sizes(page, 'li.card .picture-box');
      expect(new Set(boxes).size, boxes.join(' ')).toBe(1);
      const [boxWidth, boxHeight] = boxes[0]!.split('x').map(Number) as [number, number];
      expect(boxWidth / boxHeight).toBeCloseTo(4 / 3, 1);
      // Each picture fills its box as an element and is drawn centred, never larger than itself (scale-down).
      const fits = await page.locator('li.card .picture-box img').evaluateAll((imgs) =>
        imgs.map((img) => {
          const style = getComputedStyle(img);
          const [box, own] = [img.getBoundingClientRect(), img.parentElement!.getBoundingClientRect()];
          return `${style.objectFit} ${style.objectPosition} ${Math.round(box.width - own.width)} ${Math.round(box.height - own.height)}`;
        }),
      );
      expect(fits).toEqual(Array(4).fill('scale-down 50% 50% 0 0'));
      expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);
      await context.close();
    });
  }

  it("draws the point cloud's card an icon of its kind with its label, where the others have pictures", async () => {
    const { context, page } = await open(SCREENS.desktop, '/');
    const card = page.locator('li.card[data-object="granite-boulder"]');
    await expect(card.locator('.picture-box .no-thumb svg.type-icon').isVisible()).resolves.toBe(true);
    expect(await card.locator('.picture-box img').count()).toBe(0);
    expect((await card.locator('.picture-box').textContent())?.trim()).toBe('Point cloud');
    expect(await card.locator('.card-facts').textContent()).toContain('Point cloud');
    expect(await page.locator('li.card .picture-box img').count()).toBe(4);
    await context.close();
  });

  it('names on each card the latest version (not a newer prerelease), the number of versions and the licence', async () => {
    const { context, page } = await open(SCREENS.desktop, '/');
    const chair = page.locator('li.card[data-object="oak-chair"]');
    expect(await chair.locator('.card-version').textContent()).toBe('1.1.0');
    expect(await chair.locator('.card-version').getAttribute('href')).toBe('/objects/oak-chair/versions/1.1.0/');
    expect(await chair.textContent()).toContain('3 versions');
    expect(await chair.textContent()).not.toContain('Prerelease');
    expect(await chair.locator('[data-license-badge]').textContent()).toContain('CC-BY-4.0');
    expect((await page.locator('li.card[data-object="field-photo"] [data-license-badge]').textContent())?.trim()).toBe('License not declared');
    // The name's link is the card's: a click on the picture leads to the object page.
    const picture = (await chair.locator('.picture-box').boundingBox())!;
    await page.mouse.click(picture.x + picture.width / 2, picture.y + picture.height / 2);
    await page.waitForURL(`${server.origin}/objects/oak-chair/`);
    await context.close();
  });

  it('offers the tags versions carry, not one only a retracted version carries, which keeps its page', async () => {
    const { context, page } = await open(SCREENS.desktop, '/');
    const nav = page.locator('nav[aria-label="Filter by tag"]');
    expect(await nav.textContent()).toContain('lantern');
    expect(await nav.textContent()).not.toContain('copper');
    await page.goto(`${server.origin}/tags/`);
    const list = (await page.locator('main ul.tags').textContent()) ?? '';
    expect(list).toContain('brass');
    expect(list).not.toContain('copper');
    expect(await page.locator('main > p').first().textContent()).toMatch(/^21 tags/);
    // Brass lantern 1.0.0, retracted, still links its tag page.
    const tagPage = await page.goto(`${server.origin}/tags/copper/`);
    expect(tagPage?.status()).toBe(200);
    await context.close();
  });
});

describe('search', () => {
  it('gives one result per object, as its newest matching version, with its picture and a line of description, in place of the catalog', async () => {
    const { context, page } = await open(SCREENS.desktop, '/');
    await expect(page.locator('#catalog-listing').isVisible()).resolves.toBe(true);
    await search(page, 'chair');
    expect(await page.locator('#search .search-message').textContent()).toBe('1 result for “chair”');
    // All three versions of the oak chair match; the newest, a prerelease, is the one shown, and marked.
    expect(await listed(page)).toEqual(['oak-chair@2.0.0-beta.1']);
    const result = page.locator('#search .search-result').first();
    expect(await result.locator('.search-result-version').textContent()).toBe('2.0.0-beta.1');
    expect(await result.locator('.badge').allTextContents()).toEqual(['Prerelease']);
    expect(await result.locator('.search-result-facts').textContent()).toContain('3 matching versions');
    const beta = await manifest('oak-chair', '2.0.0-beta.1');
    expect(await result.locator('.search-result-link').textContent()).toBe(beta.name);
    expect(await result.locator('.search-result-description').textContent()).toBe(beta.description);
    const image = result.locator('img.search-result-image');
    expect(await image.getAttribute('src')).toMatch(/^\/thumbnails\/[0-9a-f]{64}-320x240-e2\.webp$/);
    await image.evaluate((img: HTMLImageElement) => img.decode());
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The catalog underneath is hidden while results are shown, and back when the box is cleared.
    await expect(page.locator('#catalog-listing').isHidden()).resolves.toBe(true);
    await page.locator('#search .search-input').fill('');
    await page.locator('#catalog-listing').waitFor({ state: 'visible' });
    await expect(page.locator('#search .search-body').isHidden()).resolves.toBe(true);
    expect(await page.locator('li.card').count()).toBe(5);
    await context.close();
  });

  it('shows the newest version that matches, not the newest version: a word only older versions carry', async () => {
    const { context, page } = await open(SCREENS.desktop, '/');
    // "dining" is in the descriptions of 1.0.0 and 1.1.0, not of the prerelease.
    await search(page, 'dining');
    expect(await listed(page)).toEqual(['oak-chair@1.1.0']);
    expect(await page.locator('#search .search-result-facts').textContent()).toContain('2 matching versions');
    // Only the retracted version names copper: it is shown, marked.
    await search(page, 'copper');
    expect(await listed(page)).toEqual(['brass-lantern@1.0.0']);
    expect(await page.locator('#search .search-result .badge').allTextContents()).toEqual(['Retracted']);
    await context.close();
  });

  it('sorts by newest and by name, and narrows by type and licence', async () => {
    const { context, page } = await open(SCREENS.desktop, '/?q=a');
    await page.locator('#search .search-message', { hasText: '5 results for “a”' }).waitFor();
    const relevance = await listed(page);
    await page.locator('#search .search-sort').selectOption('newest');
    await page.waitForURL(/sort=newest/);
    // By creation time of the version each object is shown as, newest first.
    const newest = ['oak-chair@2.0.0-beta.1', 'ceramic-vase@1.0.0', 'granite-boulder@1.0.0', 'brass-lantern@1.0.1', 'field-photo@1.0.0'];
    await expect.poll(() => listed(page), { timeout: 10_000 }).toEqual(newest);
    expect(relevance).not.toEqual(newest);
    await page.locator('#search .search-sort').selectOption('name');
    await expect
      .poll(() => page.locator('#search .search-result-link').allTextContents(), { timeout: 10_000 })
      .toEqual(['Brass lantern', 'Ceramic vase', 'Field with a lone oak', 'Granite boulder', 'Oak armchair']);
    const group = (heading: string) => page.locator('#search .search-filter', { has: page.locator('summary', { hasText: heading }) });
    await group('Types').locator('summary').click();
    await group('Types').locator('label', { hasText: 'point-cloud' }).click();
    await page.locator('#search .search-message', { hasText: '1 result for “a”' }).waitFor();
    expect(await listed(page)).toEqual(['granite-boulder@1.0.0']);
    await group('Types').locator('label', { hasText: 'point-cloud' }).click();
    await group('Licenses').locator('summary').click();
    await group('Licenses').locator('label', { hasText: 'CC0-1.0' }).click();
    await page.locator('#search .search-message', { hasText: '2 results for “a”' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#search .search-result').length === 2);
    expect(await listed(page)).toEqual(['brass-lantern@1.0.1', 'granite-boulder@1.0.0']);
    await context.close();
  });

  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`shows results on a ${name} with no serious or critical axe violation`, async () => {
      const { context, page } = await open(screen, '/');
      await search(page, 'oak');
      await page.locator('#search summary').first().click();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});

describe('the object page', () => {
  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`shows the latest release (not the newer prerelease) with its licence and downloads, then every version marked, on a ${name}`, async () => {
      const { context, page } = await open(screen, '/objects/oak-chair/');
      const latest = await manifest('oak-chair', '1.1.0');
      expect((await page.locator('h1').textContent())?.trim()).toBe(latest.name);
      expect(await page.locator('[data-latest]').getAttribute('data-latest')).toBe('1.1.0');
      expect(await page.locator('.object-summary').textContent()).toContain(latest.description);
      expect((await page.locator('.object-summary [data-license-badge]').textContent())?.trim()).toBe('License: CC-BY-4.0');
      const download = page.locator('a[data-download]').first();
      expect(await download.getAttribute('href')).toBe('/objects/oak-chair/versions/1.1.0/representations/mesh.glb');
      expect(await download.isVisible()).toBe(true);
      // The viewer is the latest release's.
      expect(await page.locator('[data-viewer]').getAttribute('aria-label')).toBe(`Viewer: ${latest.name}`);
      const rows = page.locator('li[data-version]');
      expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-version')))).toEqual(['2.0.0-beta.1', '1.1.0', '1.0.0']);
      expect(await rows.nth(0).locator('.badge').allTextContents()).toEqual(['Prerelease']);
      expect(await rows.nth(1).locator('.badge').allTextContents()).toEqual(['Latest']);
      expect(await rows.nth(2).locator('.badge').allTextContents()).toEqual([]);
      for (const [i, version] of ['2.0.0-beta.1', '1.1.0', '1.0.0'].entries()) {
        const m = await manifest('oak-chair', version);
        const time = rows.nth(i).locator('time');
        expect(await time.getAttribute('datetime')).toBe(m.createdAt);
        expect(await time.textContent()).toBe(formatDate(m.createdAt));
        expect(await rows.nth(i).locator('.history-size').textContent()).toMatch(/^\d+(\.\d)? KB in \d files?$/);
        expect(await rows.nth(i).locator('.picture-box img').count()).toBe(1);
      }
      await page.waitForFunction(() => ['loaded', 'failed', 'unsupported'].includes(document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') ?? ''), null, { timeout: 60_000 });
      await imagesSettled(page);
      expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it('marks a retracted version, and shows the picture of a kind no browser runtime shows, with its download', async () => {
    const { context, page } = await open(SCREENS.desktop, '/objects/brass-lantern/');
    const retracted = page.locator('li[data-version="1.0.0"]');
    expect(await retracted.locator('.badge').allTextContents()).toEqual(['Retracted']);
    expect(await retracted.locator('.history-name').textContent()).toBe('Copper lantern');
    expect(await page.locator('[data-latest]').getAttribute('data-latest')).toBe('1.0.1');
    await page.goto(`${server.origin}/objects/granite-boulder/`);
    expect(await page.locator('[data-viewer]').count()).toBe(0);
    await expect(page.locator('.object-picture .no-thumb svg.type-icon').isVisible()).resolves.toBe(true);
    expect(await page.locator('a[data-download]').first().getAttribute('href')).toBe('/objects/granite-boulder/versions/1.0.0/representations/cloud.ply');
    await context.close();
  });
});

describe('every page of the catalog', () => {
  const PAGES = ['/', '/tags/', '/tags/oak/', '/objects/oak-chair/', '/objects/granite-boulder/', '/objects/field-photo/'];

  it('does not scroll sideways on a 360 pixel screen, nor with search results shown', async () => {
    const context = await browser.newContext({ viewport: SCREENS.narrow });
    const page = await context.newPage();
    for (const path of PAGES) {
      await page.goto(`${server.origin}${path}`);
      expect(await sidewaysOverflow(page), path).toBe(0);
    }
    await page.goto(`${server.origin}/`);
    await search(page, 'oak');
    for (const summary of await page.locator('#search summary').all()) await summary.click();
    expect(await sidewaysOverflow(page), 'search results').toBe(0);
    await context.close();
  });

  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`has no serious or critical axe violation on a ${name}`, async () => {
      const context = await browser.newContext({ viewport: screen });
      const page = await context.newPage();
      // The oak chair's page is checked with its viewer loaded, above.
      for (const path of PAGES.filter((p) => p !== '/objects/oak-chair/')) {
        await page.goto(`${server.origin}${path}`);
        expect(await seriousAxeViolations(page), path).toEqual([]);
      }
      await context.close();
    }, 120_000);
  }
});
