/**
 * A 300-object registry built with the real build and served by the preview server: the catalog in pages linked with
 * rel="prev"/"next", each under 100 KB, its cards all of one size whatever picture they hold (a small one drawn at its
 * own size in the middle of its box), and the search box, which finds an object by name and leads to its record page
 * by keyboard alone, with filters by tag and type, all from static files. The search index is built in shards of about
 * 64 record pages (8 shards), which the search box merges.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_PAGE_SIZE } from '@aso-registry/core/documents/paging';
import { startPreview, type PreviewServer } from '../../src/site/serve/preview-server.ts';
import { launchBrowser } from '../support/browser.ts';
import { SCREENS, sidewaysOverflow } from '../support/page-quality.ts';
import { buildSite } from '../support/build-site.ts';
import { tempRegistry, writeVersion } from '../support/fixture-registry.ts';

const OBJECTS = 300;
/** Record pages a shard of the search index holds, about: 300 pages make 8 shards. */
const SHARD_PAGES = 64;
const SHARDS = 8;
/** The smallest valid glTF: an asset with nothing in it. */
const gltfBytes = (label: string) => new TextEncoder().encode(JSON.stringify({ asset: { version: '2.0', generator: label } }));
const PAGES = Math.ceil(OBJECTS / CATALOG_PAGE_SIZE);
const id = (n: number) => `object-${String(n).padStart(3, '0')}`;
/** Object n was published n minutes after the first, so the catalog shows object-299 first. */
const publishedAt = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');

/** An image as Chromium draws it once decoded: its natural size and the RGBA of each point asked for. */
async function drawnImage(img: Locator, points: [number, number][]): Promise<{ size: number[]; pixels: number[][] }> {
  await img.scrollIntoViewIfNeeded();
  await img.evaluate((el: HTMLImageElement) => el.decode());
  return img.evaluate((el: HTMLImageElement, at: [number, number][]) => {
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(el, 0, 0);
    return { size: [el.naturalWidth, el.naturalHeight], pixels: at.map(([x, y]) => [...context.getImageData(x, y, 1, 1).data]) };
  }, points);
}

let parent: string;
let preview: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  const registry = await tempRegistry('aso-catalog-');
  parent = registry.parent;
  // One image for every object with an image: left half red, right half blue, twice the thumbnail's width.
  const png = new Uint8Array(
    await sharp({ create: { width: 640, height: 400, channels: 3, background: '#ff0000' } })
      .composite([{ input: { create: { width: 320, height: 400, channels: 3, background: '#0000ff' } }, left: 320, top: 0 }])
      .png()
      .toBuffer(),
  );
  // A few objects have a small image instead, which is its own thumbnail: green, 64 x 40.
  const small = new Uint8Array(await sharp({ create: { width: 64, height: 40, channels: 3, background: '#00c000' } }).png().toBuffer());
  for (let n = 0; n < OBJECTS; n++) {
    const special = n === 137;
    await writeVersion(registry.root, {
      id: special ? 'cobalt-teapot' : id(n),
      version: '1.0.0',
      name: special ? 'Cobalt teapot' : `Sample object ${n}`,
      description: special ? 'A glazed teapot with a bamboo handle.' : `Object number ${n} of the catalog test.`,
      tags: special ? ['ceramic', 'kitchen'] : [['alpha', 'beta', 'gamma'][n % 3]!],
      license: 'CC0-1.0',
      publishedAt: publishedAt(n),
      files: n % 50 === 0 ? [{ id: 'mesh', type: 'mesh', format: 'gltf', mediaType: 'model/gltf+json', bytes: gltfBytes(`object ${n}`) }] : [{ id: 'photo', type: 'image', format: 'png', mediaType: 'image/png', bytes: n % 50 === 25 ? small : png }],
    });
  }
  const built = await buildSite({ outDir: join(parent, 'dist'), registryDir: registry.root, env: { ASO_SEARCH_SHARD_PAGES: String(SHARD_PAGES) } });
  if (built.code !== 0) throw new Error(`build failed:\n${built.stdout.slice(-3000)}\n${built.stderr.slice(-3000)}`);
  preview = await startPreview({ root: join(parent, 'dist'), port: 0 });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  if (parent) await rm(parent, { recursive: true, force: true });
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${preview.origin}${path}`);
  return page;
}

describe('the paged catalog', () => {
  it('shows a fixed number of objects a page, newest publication first, every page under 100 KB', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= PAGES; n++) {
      const res = await fetch(`${preview.origin}${n === 1 ? '/' : `/page/${n}/`}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(Buffer.byteLength(html), `page ${n}`).toBeLessThan(100_000);
      seen.push(...[...html.matchAll(/<li class="card"[^>]* data-object="([^"]+)"/g)].map((m) => m[1]!));
    }
    expect(seen.length).toBe(OBJECTS);
    expect(new Set(seen).size).toBe(OBJECTS);
    expect(seen[0]).toBe(id(299));
    expect(seen.slice(0, 3)).toEqual([id(299), id(298), id(297)]);
    expect((await fetch(`${preview.origin}/page/${PAGES + 1}/`)).status).toBe(404);
  });

  it('links the pages with numbers and rel="prev"/"next", in the head and in the page', async () => {
    const page = await open('/');
    expect(await page.locator('li.card').count()).toBe(CATALOG_PAGE_SIZE);
    expect(await page.locator('link[rel="prev"]').count()).toBe(0);
    expect(await page.locator('link[rel="next"]').getAttribute('href')).toBe('/page/2/');
    expect(await page.locator('nav.pager [aria-current="page"]').textContent()).toBe('1');
    await page.locator('nav.pager a[rel="next"]').click();
    await page.waitForURL(`${preview.origin}/page/2/`);
    expect(await page.locator('link[rel="prev"]').getAttribute('href')).toBe('/');
    expect(await page.locator('nav.pager [aria-current="page"]').textContent()).toBe('2');
    await page.locator(`nav.pager a[href="/page/${PAGES}/"]`).click();
    await page.waitForURL(`${preview.origin}/page/${PAGES}/`);
    expect(await page.locator('li.card').count()).toBe(OBJECTS - (PAGES - 1) * CATALOG_PAGE_SIZE);
    expect(await page.locator('link[rel="next"]').count()).toBe(0);
    expect(await page.locator('nav.pager a[rel="next"]').count()).toBe(0);
    await page.close();
  });

  it('pages each tag the same way and shows tag counts inside the tag links', async () => {
    const page = await open('/tags/alpha/');
    expect(await page.locator('li.card').count()).toBe(CATALOG_PAGE_SIZE);
    expect(await page.locator('link[rel="next"]').getAttribute('href')).toBe('/tags/alpha/page/2/');
    const alpha = page.locator('nav[aria-label="Filter by tag"] [aria-current="page"]');
    expect((await alpha.textContent())?.replace(/\s+/g, ' ').trim()).toBe('alpha 100 objects');
    await page.close();
  });
});

describe('catalog thumbnails', () => {
  it('are one WebP that fits a card for the image the objects share, and its twin for dense screens, served as image/webp, linked by every card that shows it and drawn by Chromium', async () => {
    const made = (await readdir(join(parent, 'dist', 'thumbnails'))).sort();
    expect(made).toHaveLength(2);
    expect(made[0]).toMatch(/^[0-9a-f]{64}-320x240-e2\.webp$/);
    expect(made[1]).toBe(made[0]!.replace('-320x240-', '-640x480-'));
    const files = [made[0]!];
    expect(await sharp(join(parent, 'dist', 'thumbnails', files[0]!)).metadata()).toMatchObject({ format: 'webp', width: 320, height: 200 });
    // The source is 640 pixels wide: the dense twin has them all, and never more.
    expect(await sharp(join(parent, 'dist', 'thumbnails', made[1]!)).metadata()).toMatchObject({ format: 'webp', width: 640, height: 400 });
    const page = await browser.newPage();
    const served: { path: string; type: string | null }[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/thumbnails/')) served.push({ path, type: r.headers()['content-type'] ?? null });
    });
    await page.goto(`${preview.origin}/`);
    const imgs = page.locator('li.card img');
    // Every object but the six with a mesh only has the image.
    const withImage = Array.from({ length: CATALOG_PAGE_SIZE }, (_, i) => OBJECTS - 1 - i).filter((n) => n % 50 !== 0).length;
    expect(await imgs.count()).toBe(withImage);
    expect(await page.locator('li.card picture').count()).toBe(0);
    // All but the one small image of the page (object-275), which is shown as it is (below).
    const srcs = await imgs.evaluateAll((els) => els.map((el) => el.getAttribute('src')));
    expect(srcs.filter((src) => src !== `/thumbnails/${files[0]}`)).toEqual(['/objects/object-275/versions/1.0.0/representations/photo.png']);
    const first = imgs.first();
    // The first row of cards loads at once (the first screen), the rest when scrolled near.
    expect(await first.getAttribute('loading')).toBeNull();
    expect(await imgs.nth(5).getAttribute('loading')).toBe('lazy');
    expect(await first.getAttribute('decoding')).toBe('async');
    expect([await first.getAttribute('width'), await first.getAttribute('height')]).toEqual(['320', '200']);
    expect(await first.getAttribute('srcset')).toBe(`/thumbnails/${made[0]} 1x, /thumbnails/${made[1]} 2x`);
    // Decorative: the card's name stands beside it and is its link.
    expect(await first.getAttribute('alt')).toBe('');
    // Drawn at its own size: the left half red, the right half blue, as in the source.
    const drawn = await drawnImage(first, [[80, 100], [240, 100]]);
    expect(drawn.size).toEqual([320, 200]);
    const [[lr, lg, lb], [rr, rg, rb]] = drawn.pixels as [number[], number[]];
    expect(lr).toBeGreaterThan(230);
    expect(lg! + lb!).toBeLessThan(40);
    expect(rb).toBeGreaterThan(230);
    expect(rr! + rg!).toBeLessThan(40);
    expect(served.length).toBeGreaterThan(0);
    for (const s of served) expect(s).toEqual({ path: `/thumbnails/${files[0]}`, type: 'image/webp' });
    await page.close();
  });
});

describe('a small image', () => {
  it('is its own thumbnail: the card links the published file, served as image/png, and Chromium draws it', async () => {
    const page = await browser.newPage();
    const path = '/objects/object-275/versions/1.0.0/representations/photo.png';
    const served: (string | null)[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === path) served.push(r.headers()['content-type'] ?? null);
    });
    await page.goto(`${preview.origin}/`);
    const img = page.locator(`li.card img[src="${path}"]`);
    expect(await img.count()).toBe(1);
    expect([await img.getAttribute('width'), await img.getAttribute('height')]).toEqual(['64', '40']);
    expect(await img.getAttribute('srcset')).toBeNull();
    expect(await img.getAttribute('alt')).toBe('');
    const drawn = await drawnImage(img, [[32, 20]]);
    expect(drawn.size).toEqual([64, 40]);
    const [[r, g, b]] = drawn.pixels as [number[]];
    expect(g).toBeGreaterThan(170);
    expect(r! + b!).toBeLessThan(40);
    expect(served).toEqual(['image/png']);
    await page.close();
  });

  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`is drawn at its own size in the middle of its card's picture box on a ${name}, not stretched to fill it`, async () => {
      const page = await browser.newPage({ viewport: screen });
      await page.goto(`${preview.origin}/`);
      const box = page.locator('li.card[data-object="object-275"] .picture-box');
      await box.scrollIntoViewIfNeeded();
      await box.locator('img').evaluate((el: HTMLImageElement) => el.decode());
      const size = (await box.boundingBox())!;
      expect(size.width).toBeGreaterThan(64);
      // The green pixels of the box's picture: a 64 x 40 block with its centre at the box's centre.
      const shot = await sharp(await box.screenshot()).raw().toBuffer({ resolveWithObject: true });
      const { width, height, channels } = shot.info;
      const green = (x: number, y: number) => {
        const at = (y * width + x) * channels;
        return shot.data[at + 1]! > 150 && shot.data[at]! + shot.data[at + 2]! < 80;
      };
      const row = Array.from({ length: width }, (_, x) => green(x, Math.floor(height / 2))).map(Number);
      const column = Array.from({ length: height }, (_, y) => green(Math.floor(width / 2), y)).map(Number);
      const span = (line: number[]) => ({ from: line.indexOf(1), count: line.reduce((a, b) => a + b, 0) });
      expect(span(row).count).toBe(64);
      expect(span(column).count).toBe(40);
      expect(Math.abs(span(row).from - (width - 64) / 2)).toBeLessThanOrEqual(1);
      expect(Math.abs(span(column).from - (height - 40) / 2)).toBeLessThanOrEqual(1);
      await page.close();
    });
  }
});

describe('the cards of a full page', () => {
  for (const [name, screen] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    it(`all have one height and one picture box on a ${name}, with a picture, a small picture or a drawn icon`, async () => {
      const page = await browser.newPage({ viewport: screen });
      // Page 2: object-250 has a mesh only, object-225 a small image, the others the large one.
      await page.goto(`${preview.origin}/page/2/`);
      const sizes = (selector: string) =>
        page.locator(selector).evaluateAll((els) => els.map((el) => `${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`));
      const cards = await sizes('li.card');
      expect(cards).toHaveLength(CATALOG_PAGE_SIZE);
      expect(new Set(cards)).toEqual(new Set([cards[0]]));
      expect(new Set(await sizes('li.card .picture-box'))).toEqual(new Set([(await sizes('li.card .picture-box'))[0]]));
      // The mesh without a picture gets the icon of its kind.
      expect(await page.locator('li.card[data-object="object-250"] .picture-box .no-thumb svg.type-icon').count()).toBe(1);
      expect(await page.locator('li.card[data-object="object-225"] .picture-box img').getAttribute('width')).toBe('64');
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.close();
    });
  }
});

describe('search', () => {
  it('is an index in shards: the first with Pagefind\'s scripts, the others with their index files only', async () => {
    const dist = join(parent, 'dist', 'pagefind');
    const top = await readdir(dist);
    expect(top.filter((f) => f.startsWith('shard-')).sort()).toEqual(Array.from({ length: SHARDS - 1 }, (_, i) => `shard-${i + 1}`).sort());
    expect(top).toEqual(expect.arrayContaining(['pagefind.js', 'pagefind-entry.json', 'fragment']));
    let fragments = (await readdir(join(dist, 'fragment'))).length;
    for (let n = 1; n < SHARDS; n++) {
      const files = await readdir(join(dist, `shard-${n}`));
      expect(files.filter((f) => /\.(js|css)$|^wasm\./.test(f)), `shard-${n}`).toEqual([]);
      expect(files).toEqual(expect.arrayContaining(['pagefind-entry.json', 'fragment', 'index']));
      fragments += (await readdir(join(dist, `shard-${n}`, 'fragment'))).length;
    }
    // One fragment per record page, over all shards.
    expect(fragments).toBe(OBJECTS);
  });

  it('finds an object by name and reaches its record page by keyboard', async () => {
    const page = await open('/');
    const input = page.locator('#search .search-input');
    await input.waitFor();
    // Tab from the top of the page to the search box.
    let focused = false;
    for (let i = 0; i < 40 && !focused; i++) {
      await page.keyboard.press('Tab');
      focused = await input.evaluate((el) => el === document.activeElement);
    }
    expect(focused).toBe(true);
    await page.keyboard.type('cobalt teapot');
    const first = page.locator('#search .search-result-link').first();
    await first.waitFor();
    // Its record page is in shard 5 of 8: the box searched the merged shards.
    expect(await first.textContent()).toContain('Cobalt teapot');
    let onResult = false;
    for (let i = 0; i < 20 && !onResult; i++) {
      await page.keyboard.press('Tab');
      onResult = await first.evaluate((el) => el === document.activeElement);
    }
    expect(onResult).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${preview.origin}/objects/cobalt-teapot/versions/1.0.0/`);
    expect((await page.locator('h1').textContent())?.trim()).toBe('Cobalt teapot');
    await page.close();
  });

  it('filters by tag and by type, from the index the build wrote', async () => {
    let page = await open('/');
    const merge = JSON.parse((await page.locator('#search').getAttribute('data-merge'))!) as string[];
    expect(merge).toEqual(Array.from({ length: SHARDS - 1 }, (_, i) => `/pagefind/shard-${i + 1}/`));
    // A string, so that the test runner leaves the browser's own import() alone.
    const result = (await page.evaluate(`(async () => {
      const pagefind = await import('/pagefind/pagefind.js');
      await pagefind.options({});
      for (const path of ${JSON.stringify(merge)}) await pagefind.mergeIndex(path);
      const filters = await pagefind.filters();
      const count = async (term, filters) => (await pagefind.search(term, { filters })).results.length;
      return {
        filters,
        kitchen: await count(null, { tag: 'kitchen' }),
        meshes: await count(null, { type: 'mesh' }),
        bamboo: await count('bamboo', {}),
        license: await count('CC0-1.0', {}),
      };
    })()`)) as { filters: Record<string, Record<string, number>>; kitchen: number; meshes: number; bamboo: number; license: number };
    expect(result.filters.tag).toMatchObject({ alpha: 100, kitchen: 1 });
    expect(result.filters.type).toEqual({ image: OBJECTS - 6, mesh: 6 });
    expect(result.kitchen).toBe(1);
    expect(result.meshes).toBe(6);
    expect(result.bamboo).toBe(1);
    expect(result.license).toBe(OBJECTS);
    await page.close();
    // The search box shows the same filters beside the results. A page of its own: the module above is the one the box
    // imports, with the shards merged into it already.
    page = await open('/');
    await page.locator('#search .search-input').fill('sample');
    await page.locator('#search .search-result-link').first().waitFor();
    // Every "Sample object" but the teapot, from all eight shards.
    await page.locator('#search .search-message', { hasText: `${OBJECTS - 1} results` }).waitFor();
    const filters = page.locator('#search .search-filters');
    expect(await filters.textContent()).toContain('kitchen');
    // Ten results at a time; checking a tag's box narrows them to the versions that carry it.
    expect(await page.locator('#search .search-result').count()).toBe(10);
    await page.locator('#search .search-more').click();
    await page.locator('#search .search-result').nth(19).waitFor();
    await filters.locator('summary', { hasText: 'Tags' }).click();
    await filters.locator('label', { hasText: 'alpha' }).click();
    await page.locator('#search .search-message', { hasText: '100 results' }).waitFor();
    expect((await filters.locator('label', { hasText: 'alpha' }).textContent())?.replace(/\s+/g, ' ')).toBe('alpha (100)');
    await page.close();
  });
});
