/**
 * Embeds of the built sample site in Chromium: a version's oEmbed document, found through its record page's discovery
 * link, put as it is into a page of another origin, where its iframe reaches a verified viewer; the embed page of a
 * version no runtime shows; and the record page's Embed button.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OembedDocument } from '@aso-registry/core/documents/oembed';
import { launchBrowser } from '../support/browser.ts';
import { SCREENS, seriousAxeViolations, sidewaysOverflow } from '../support/page-quality.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

/** The registry URL the sample site is built for. */
const ORIGIN = 'https://registry.example.org';

let site: StaticServer;
let host: StaticServer;
let hostDir: string;
let browser: Browser;

beforeAll(async () => {
  site = await serveStatic(siteDir());
  hostDir = await mkdtemp(join(tmpdir(), 'aso-embed-host-'));
  host = await serveStatic(hostDir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** A URL on the registry, on the test's server of the site. */
const onSite = (url: string): string => (url.startsWith(`${ORIGIN}/`) ? `${site.origin}${url.slice(ORIGIN.length)}` : url);

/** The oEmbed document a record page announces, read through its discovery link. */
async function discoveredOembed(recordPath: string): Promise<{ href: string; doc: OembedDocument }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${site.origin}${recordPath}`, { waitUntil: 'domcontentloaded' });
    const links = await page.locator('link[rel="alternate"][type="application/json+oembed"]').evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
    expect(links).toHaveLength(1);
    const response = await fetch(onSite(links[0]!));
    expect(response.status).toBe(200);
    return { href: links[0]!, doc: (await response.json()) as OembedDocument };
  } finally {
    await page.close();
  }
}

describe('the oEmbed document of a version', () => {
  it("is announced with an absolute link, and its iframe on another site's page reaches a verified viewer", { timeout: 180_000 }, async () => {
    const { href, doc } = await discoveredOembed('/objects/oak-chair/versions/1.1.0/');
    expect(href).toBe(`${ORIGIN}/objects/oak-chair/versions/1.1.0/oembed.json`);
    expect(doc).toMatchObject({ version: '1.0', type: 'rich', title: 'Oak chair 1.1.0', provider_url: `${ORIGIN}/`, width: 640, height: 480 });
    // The thumbnail is a file of the site, of the size the document says.
    const thumbnail = await fetch(onSite(doc.thumbnail_url!));
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\//);
    const sharp = (await import('sharp')).default;
    expect(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).toMatchObject({ width: doc.thumbnail_width, height: doc.thumbnail_height });

    // The html as it is, but for the registry's origin, which here is the test's server of the site (another port).
    const iframe = doc.html.replace(`src="${ORIGIN}/`, `src="${site.origin}/`);
    expect(iframe).not.toBe(doc.html);
    await writeFile(join(hostDir, 'index.html'), `<!DOCTYPE html><html lang="en"><head><title>A post</title></head><body><p>Before.</p>${iframe}<p>After.</p></body></html>`);
    expect(new URL(host.origin).origin).not.toBe(new URL(site.origin).origin);
    const context = await browser.newContext({ viewport: SCREENS.desktop });
    try {
      const page = await context.newPage();
      await page.goto(`${host.origin}/`);
      const frame = page.frameLocator('iframe');
      await frame.locator('[data-viewer][data-viewer-state="loaded"] .viewer-stage model-viewer').waitFor({ timeout: 150_000 });
      expect(await frame.locator('[data-viewer]').getAttribute('data-viewer-state')).toBe('loaded');
      // The embed is the viewer and one bar: no site header or footer, a link back to the record page in a new tab.
      expect(await frame.locator('header.site, footer.site').count()).toBe(0);
      const back = frame.locator('a', { hasText: 'View on registry.example.org' });
      expect(await back.getAttribute('href')).toBe('/objects/oak-chair/versions/1.1.0/');
      expect(await back.getAttribute('target')).toBe('_blank');
      // It fills the iframe.
      const box = await page.locator('iframe').boundingBox();
      const filled = await frame.locator('[data-viewer]').boundingBox();
      expect(box && filled && filled.height / box.height).toBeGreaterThan(0.75);
    } finally {
      await context.close();
    }
  });
});

describe('the embed page', () => {
  it('shows the Unsupported state for a version no runtime shows, passes axe and fits a 360-pixel frame', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: SCREENS.narrow });
    try {
      const page = await context.newPage();
      await page.goto(`${site.origin}/objects/granite-boulder/versions/1.0.0/embed/`);
      const viewer = page.locator('[data-viewer]');
      await page.waitForFunction(() => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') === 'unsupported');
      expect(await viewer.textContent()).toContain('Unsupported');
      expect(await page.locator('h1').textContent()).toBe('Granite boulder 1.0.0');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.goto(`${site.origin}/objects/oak-chair/versions/1.1.0/embed/`);
      await page.waitForFunction(() => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') === 'loaded', null, { timeout: 120_000 });
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('the Embed button of a record page', () => {
  it("shows the oEmbed document's snippet and copies it", { timeout: 120_000 }, async () => {
    const { doc } = await discoveredOembed('/objects/oak-chair/versions/1.0.0/');
    const context = await browser.newContext({ viewport: SCREENS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    try {
      const page = await context.newPage();
      await page.goto(`${site.origin}/objects/oak-chair/versions/1.0.0/`, { waitUntil: 'domcontentloaded' });
      const code = page.locator('[data-embed] textarea');
      expect(await code.isVisible()).toBe(false);
      await page.locator('[data-embed] summary', { hasText: 'Embed' }).click();
      expect(await code.isVisible()).toBe(true);
      expect(await code.inputValue()).toBe(doc.html);
      await page.locator('[data-embed] button', { hasText: 'Copy' }).click();
      await page.locator('[data-embed] [role="status"]', { hasText: 'Copied.' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(doc.html);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
