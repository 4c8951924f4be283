/**
 * The compare page of the built sample site in Chromium: oak-chair 1.0.0 against 1.1.0, each in a verifying viewer with
 * linked cameras, and the facts and metadata of the two versions' API documents with their differences marked.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '@aso-registry/core/documents/api-types';
import { launchBrowser } from '../support/browser.ts';
import { SCREENS, seriousAxeViolations, sidewaysOverflow } from '../support/page-quality.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

let server: StaticServer;
let browser: Browser;
let older: ApiVersion;
let newer: ApiVersion;

const apiVersion = async (version: string): Promise<ApiVersion> => (await (await fetch(`${server.origin}/api/v1/objects/oak-chair/versions/${version}.json`)).json()) as ApiVersion;
const count = (n: number): string => n.toLocaleString('en-US');

beforeAll(async () => {
  server = await serveStatic(siteDir());
  browser = await launchBrowser();
  [older, newer] = await Promise.all([apiVersion('1.0.0'), apiVersion('1.1.0')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a compare page and waits until both viewers have verified and shown their files. */
async function openCompare(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.origin}/objects/oak-chair/compare/${query}`);
  await page.locator('[data-compare][data-compare-state="ready"]').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-viewer]')].map((v) => v.getAttribute('data-viewer-state')).join() === 'loaded,loaded', null, { timeout: 90_000 });
  return page;
}

/** The rows of a table of the page: key, the two values, whether marked changed, the change cell. */
function rowsOf(page: Page, table: 'facts' | 'metadata') {
  return page.locator(`.compare-${table} tbody tr`).evaluateAll((trs) =>
    Object.fromEntries(
      trs.map((tr) => {
        const cells = [...tr.children].map((c) => c.textContent ?? '');
        return [(tr as HTMLElement).dataset.key!, { label: cells[0], a: cells[1], b: cells[2], changed: (tr as HTMLElement).dataset.changed === 'true', change: cells[3] }];
      }),
    ),
  );
}

/** The camera orbit of each model view, as `[theta, phi]` in radians. */
const orbits = (page: Page) =>
  page.locator('[data-viewer] model-viewer').evaluateAll((els) =>
    els.map((el) => {
      const o = (el as unknown as { getCameraOrbit(): { theta: number; phi: number } }).getCameraOrbit();
      return [o.theta, o.phi];
    }),
  );

describe('the compare page of oak-chair 1.0.0 and 1.1.0', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: SCREENS.desktop });
    page = await openCompare(context, '?a=1.0.0&b=1.1.0');
  }, 120_000);
  afterAll(() => context?.close());

  it('shows both versions verified in a viewer each, the older on the left', async () => {
    expect(await page.locator('[data-side="a"] h2').textContent()).toContain('1.0.0');
    expect(await page.locator('[data-side="b"] h2').textContent()).toContain('1.1.0');
    const sources = await page.locator('[data-viewer]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.viewerRepresentation));
    expect(sources).toEqual(['mesh', 'mesh']);
    // Each viewer has a name of its own.
    const names = await page.locator('[data-viewer]').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(new Set(names).size).toBe(2);
    expect(await page.locator('select[name="a"]').inputValue()).toBe('1.0.0');
    expect(await page.locator('select[name="b"]').inputValue()).toBe('1.1.0');
  });

  it("lists the facts of the API documents' meshes with their differences marked", async () => {
    const meshA = older.representations.find((r) => r.id === 'mesh')!;
    const meshB = newer.representations.find((r) => r.id === 'mesh')!;
    const facts = await rowsOf(page, 'facts');
    const expectRow = (key: string, a: number, b: number) => {
      expect(facts[key], key).toMatchObject({ a: count(a), b: count(b), changed: a !== b });
      if (a !== b) expect(facts[key]!.change, key).toMatch(new RegExp(`^\\${b > a ? '+' : '-'}${count(Math.abs(b - a))}`));
      else expect(facts[key]!.change, key).toBe('Same');
    };
    expectRow('triangles', meshA.gltf!.triangles, meshB.gltf!.triangles);
    expectRow('vertices', meshA.gltf!.vertices, meshB.gltf!.vertices);
    expectRow('materials', meshA.gltf!.materials, meshB.gltf!.materials);
    expectRow('textures', meshA.gltf!.textures, meshB.gltf!.textures);
    expectRow('bytes', meshA.byteLength, meshB.byteLength);
    const total = (v: ApiVersion) => v.representations.reduce((n, r) => n + r.byteLength, 0);
    expectRow('totalBytes', total(older), total(newer));
    expect(facts.triangles!.changed).toBe(true);
    expect(facts.extensionsUsed).toMatchObject({ a: meshA.gltf!.extensionsUsed.join(', ') || 'none', b: meshB.gltf!.extensionsUsed.join(', ') || 'none' });
    expect(facts.hash).toMatchObject({ a: meshA.hash, b: meshB.hash, changed: true, change: 'Changed' });
    // A changed row looks different from an unchanged one.
    const background = (key: string) => page.locator(`.compare-facts tr[data-key="${key}"]`).evaluate((tr) => getComputedStyle(tr).backgroundColor);
    expect(await background('triangles')).not.toBe(await background('materials'));
  });

  it('lists the metadata of the API documents with their differences', async () => {
    const meta = await rowsOf(page, 'metadata');
    expect(meta.description).toMatchObject({ a: older.manifest.description, b: newer.manifest.description, changed: true });
    expect(meta.license).toMatchObject({ a: older.manifest.license, b: newer.manifest.license, changed: false, change: 'Same' });
    expect(meta.recordHash).toMatchObject({ a: older.publication.recordHash, b: newer.publication.recordHash, changed: true });
    expect(meta.worlds!.b).toBe(newer.worlds.map((w) => w.name).join(', ') || 'none');
  });

  it('moves the other camera when a person turns one', { timeout: 90_000 }, async () => {
    const before = await orbits(page);
    expect(before).toHaveLength(2);
    const box = (await page.locator('[data-side="a"] model-viewer').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    // Once the dragged camera has come to rest, the other one shows the same orbit.
    await page.waitForFunction((start) => {
      const [a, b] = [...document.querySelectorAll('[data-viewer] model-viewer')].map((el) => (el as unknown as { getCameraOrbit(): { theta: number } }).getCameraOrbit().theta);
      return Math.abs(a! - start) > 0.1 && Math.abs(a! - b!) < 1e-4;
    }, before[0]![0]!);
    const after = await orbits(page);
    expect(Math.abs(after[0]![0]! - before[0]![0]!)).toBeGreaterThan(0.1);
    expect(after[1]![0]).toBeCloseTo(after[0]![0]!, 3);
    expect(after[1]![1]).toBeCloseTo(after[0]![1]!, 3);
    // Unlinked, the other camera stays where it is.
    await page.locator('.compare-link input').uncheck();
    const held = (await orbits(page))[1]!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction((t) => Math.abs((document.querySelector('[data-side="a"] model-viewer') as unknown as { getCameraOrbit(): { theta: number } }).getCameraOrbit().theta - t) > 0.1, after[0]![0]!);
    expect((await orbits(page))[1]).toEqual(held);
  });

  it('passes axe', { timeout: 90_000 }, async () => {
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('the compare page', () => {
  it('compares the two newest releases by default, names a version the object lacks, and fits a 360-pixel screen', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: SCREENS.narrow });
    try {
      const page = await openCompare(context, '?a=9.9.9');
      expect(await page.locator('.compare-status').textContent()).toContain('a: "9.9.9" is not a version of this object');
      expect(await page.locator('[data-side="a"] h2').textContent()).toContain('1.0.0');
      expect(await page.locator('[data-side="b"] h2').textContent()).toContain('1.1.0');
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says without script what it needs, and exists only for objects with two versions', async () => {
    const html = await (await fetch(`${server.origin}/objects/oak-chair/compare/`)).text();
    expect(html).toMatch(/<noscript>[\s\S]*needs JavaScript[\s\S]*<\/noscript>/);
    expect((await fetch(`${server.origin}/objects/granite-boulder/compare/`)).status).toBe(404);
  });

  it('is linked from a record page with the version on its side', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.origin}/objects/oak-chair/versions/1.1.0/`, { waitUntil: 'domcontentloaded' });
      const links = await page.locator('.compare-links a').evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute('href')]));
      expect(links).toEqual([
        ['2.0.0-beta.1', '/objects/oak-chair/compare/?a=1.1.0&b=2.0.0-beta.1'],
        ['1.0.0', '/objects/oak-chair/compare/?a=1.0.0&b=1.1.0'],
      ]);
      expect(await page.locator('.compare-links').textContent()).toMatch(/^\s*Compare with /);
    } finally {
      await page.close();
    }
  });
});
