/** The inspection viewer on the built sample site: what it loads, how, and what it says when nothing can be shown. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '@aso-registry/core/documents/format-bytes';
import { noCompatibleText, pickPresentable } from '@aso-registry/core/format/compatibility';
import type { Representation } from '@aso-registry/core/format/types';
import { pickRepresentation } from '../../src/viewer/viewer-config.ts';
import { pickVersion, servedPath, shownRepresentation, type SiteVersion } from '../viewer/support/site-versions.ts';
import { sampleSiteSession } from '../viewer/support/sample-site-session.ts';
import { MESH_WAIT_MS, recordViewerStates, transitions, viewerOutcome } from '../viewer/support/viewer-page.ts';


const site = sampleSiteSession();

/** A fresh browser context on a version's record page, recording the viewer's states and every request. */
async function openVersion(v: SiteVersion) {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  // The viewer downloads with fetch(); a poster or a thumbnail is an image load of its own and does not count.
  const downloads: string[] = [];
  page.on('request', (r) => {
    requests.push(r.url());
    if (r.resourceType() === 'fetch') downloads.push(r.url());
  });
  await recordViewerStates(page);
  await page.goto(`${site.server.origin}${v.pagePath}`);
  /** The viewer's downloads of `path`. */
  const requestsTo = (path: string) => downloads.filter((u) => new URL(u).pathname === path);
  return { context, page, requests, requestsTo };
}

// The first mesh of a page costs the most (WebGL set-up), so the mesh tests share one page, in this order.
describe('a mesh version', () => {
  let v: SiteVersion;
  let rep: Representation;
  let session: Awaited<ReturnType<typeof openVersion>>;
  let page: Page;

  beforeAll(async () => {
    v = pickVersion(site.versions, 'mesh');
    rep = shownRepresentation(v);
    session = await openVersion(v);
    page = session.page;
  });
  afterAll(() => session?.context.close());

  it('reaches loaded after fetching and verifying, in <model-viewer> from the very bytes it fetched', async () => {
    const outcome = await viewerOutcome(page, MESH_WAIT_MS);
    expect(outcome, outcome.text).toMatchObject({ state: 'loaded', label: 'Loaded', representation: rep.id });
    expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'loaded']);
    // A short line for people; the full hash folded in the detail and in the status's tooltip.
    expect(outcome.text).toBe(`Verified · ${formatBytes(rep.byteLength)} · SHA-256 matches`);
    expect(outcome.detail).toContain(`${rep.hash} verified; glTF validated with no errors`);
    expect(await page.locator('[data-viewer] .viewer-line').getAttribute('title')).toBe(outcome.detail);

    const mv = page.locator('[data-viewer] model-viewer');
    expect(await mv.getAttribute('src')).toMatch(/^blob:/);
    expect(await mv.getAttribute('alt')).toBe(v.manifest.name);
    expect(await mv.getAttribute('camera-controls')).not.toBeNull();
    expect(await mv.getAttribute('auto-rotate')).not.toBeNull();
    expect(await mv.getAttribute('poster')).toBeNull();
    // The poster is the preview, verified like a representation and shown as a blob URL of the checked bytes.
    if (v.manifest.preview) {
      expect(await page.locator('[data-viewer] .viewer-poster img').getAttribute('src')).toMatch(/^blob:/);
      const previewPath = servedPath(v.manifest.preview);
      expect(session.requests.filter((u) => new URL(u).pathname === previewPath)).toEqual(session.requestsTo(previewPath));
      expect(session.requestsTo(previewPath)).toHaveLength(1);
    }

    // One download, from the page's own origin; model-viewer, three and the validator come from the build.
    const { requests, requestsTo } = session;
    expect(requestsTo(servedPath(rep))).toHaveLength(1);
    expect(requests.filter((u) => u.startsWith(new URL(rep.url).origin))).toEqual([]);
    const scripts = requests.filter((u) => u.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(2);
    for (const u of scripts) expect(u.startsWith(`${site.server.origin}/_astro/`), u).toBe(true);
  }, MESH_WAIT_MS + 30_000);

  it('draws the model: once the poster is gone, the canvas differs from the background', async () => {
    const mv = page.locator('[data-viewer] model-viewer');
    await page.waitForFunction(() => (document.querySelector('model-viewer') as unknown as { modelIsVisible?: boolean } | null)?.modelIsVisible === true, null, { timeout: MESH_WAIT_MS });
    expect(await page.locator('[data-viewer] .viewer-poster').isVisible()).toBe(false);
    const background = await mv.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [br, bg, bb] = (background.match(/\d+/g) ?? []).map(Number) as [number, number, number];
    const { data, info } = await sharp(await mv.screenshot({ animations: 'disabled' })).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let drawn = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (Math.abs(data[i]! - br) + Math.abs(data[i + 1]! - bg) + Math.abs(data[i + 2]! - bb) > 30) drawn++;
    }
    expect(drawn / (info.width * info.height)).toBeGreaterThan(0.01);
  });

  it('has no serious or critical axe violation', async () => {
    await page.addScriptTag({ content: axe.source });
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document);
      return result.violations.map((x) => ({ id: x.id, impact: x.impact, help: x.help, nodes: x.nodes.map((n) => n.target.join(' ')) }));
    });
    expect(violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')).toEqual([]);
  });

  it('runs the same sequence from the Inspect control of each representation', async () => {
    for (const each of v.manifest.representations) {
      await page.evaluate(() => (window.viewerStates = []));
      await page.locator(`button[data-inspect="${each.id}"]`).click();
      await page.waitForFunction((id) => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-representation') === id, each.id);
      const outcome = await viewerOutcome(page);
      if (pickPresentable([each])) {
        expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: each.id });
        expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'loaded']);
      } else {
        expect(outcome).toMatchObject({ state: 'unsupported', representation: each.id, report: noCompatibleText([each]) });
      }
    }
  });
});

describe('the preview row', () => {
  it('inspects the preview when the page describes it to the viewer, interrupting the first inspection', async () => {
    const v = site.versions.find((x) => x.manifest.preview && pickPresentable([x.manifest.preview]));
    if (!v?.manifest.preview) throw new Error('the sample site has no version with a presentable preview');
    const preview = v.manifest.preview;
    const html = await readFile(join(site.dist, v.pagePath, 'index.html'), 'utf8');
    const described = html.includes(`"preview":{"id":${JSON.stringify(preview.id)}`)
      ? html
      : html.replace('class="viewer-config">{', `class="viewer-config">{"preview":${JSON.stringify(pickRepresentation(preview))},`);
    site.server.setOverride((pathname) => (pathname === v.pagePath ? { body: described, type: 'text/html; charset=utf-8' } : undefined));
    const { context, page, requestsTo } = await openVersion(v);
    try {
      await page.locator(`button[data-inspect="${preview.id}"]`).click();
      await page.waitForFunction((id) => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-representation') === id, preview.id);
      const outcome = await viewerOutcome(page);
      expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: preview.id });
      expect(await page.locator('[data-viewer] .viewer-stage > *').count()).toBe(1);
      expect(await page.locator('[data-viewer] .viewer-stage img').getAttribute('src')).toMatch(/^blob:/);
      expect(requestsTo(servedPath(preview))).toHaveLength(1);
    } finally {
      site.server.setOverride(undefined);
      await context.close();
    }
  });
});

describe('an image-only version', () => {
  it('reaches loaded in an <img> of the verified bytes, without loading the 3D runtime', async () => {
    const v = pickVersion(site.versions, 'image-only');
    const rep = shownRepresentation(v);
    const { context, page, requests, requestsTo } = await openVersion(v);
    try {
      const outcome = await viewerOutcome(page);
      expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: rep.id });
      expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'loaded']);
      const img = page.locator('[data-viewer] .viewer-stage img');
      expect(await img.getAttribute('src')).toMatch(/^blob:/);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
      expect(requestsTo(servedPath(rep))).toHaveLength(1);
      // Only the island's entry script: no model-viewer, three or validator, and well under the page's budget. The
      // transparency log's check (Ed25519, SHA-2) loads once the viewer has settled and is not the viewer's.
      const scripts = requests.filter((u) => u.endsWith('.js') && !/\/log-check\.[\w-]+\.js$/.test(u));
      expect(scripts.filter((u) => /model-viewer|validate-worker/.test(u))).toEqual([]);
      const sizes = await Promise.all(scripts.map(async (u) => (await context.request.get(u)).body().then((b) => b.byteLength)));
      expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(20 * 1024);
    } finally {
      await context.close();
    }
  });
});

describe('a version no runtime can load', () => {
  it('says Unsupported, Preview unavailable, with the exact reports, and fetches nothing', async () => {
    const v = pickVersion(site.versions, 'unsupported');
    const { context, page, requestsTo } = await openVersion(v);
    try {
      const outcome = await viewerOutcome(page);
      expect(outcome).toMatchObject({ state: 'unsupported', label: 'Unsupported', text: 'Preview unavailable' });
      expect(outcome.report).toBe(noCompatibleText(v.manifest.representations));
      expect(outcome.report).toMatch(/^No compatible representation: [^ ]+\/browser-gltf: type "point-cloud" is not supported; expected mesh; format "ply"/);
      expect(outcome.states).toEqual([]);
      for (const r of v.manifest.representations) expect(requestsTo(servedPath(r))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
