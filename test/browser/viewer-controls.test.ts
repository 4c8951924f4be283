/** The viewer as a product viewer on the sample site: a stage that does not move while it loads, and controls that work. */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AR_MODES } from '../../src/viewer/present-mesh.ts';
import { inFirstScreen, layoutShift, recordLayoutShift, SCREENS, seriousAxeViolations, sidewaysOverflow } from '../support/page-quality.ts';
import { pickVersion, servedPath, shownRepresentation, type SiteVersion } from '../viewer/support/site-versions.ts';
import { sampleSiteSession } from '../viewer/support/sample-site-session.ts';
import { MESH_WAIT_MS, viewerOutcome } from '../viewer/support/viewer-page.ts';


const site = sampleSiteSession();

/** Waits until model-viewer draws the model rather than nothing. */
const modelVisible = (page: Page) =>
  page.waitForFunction(() => (document.querySelector('[data-viewer] model-viewer') as unknown as { modelIsVisible?: boolean } | null)?.modelIsVisible === true, null, {
    timeout: MESH_WAIT_MS,
  });

/** A screenshot of the 3D view once two in a row are the same (the camera has come to rest). */
async function stillShot(mv: Locator): Promise<Buffer> {
  let last = await mv.screenshot({ animations: 'disabled' });
  for (let i = 0; i < 40; i++) {
    await mv.page().waitForTimeout(100);
    const next = await mv.screenshot({ animations: 'disabled' });
    if (next.equals(last)) return next;
    last = next;
  }
  throw new Error('the 3D view kept changing');
}

/** The share of pixels that differ clearly between two screenshots of the same size. */
async function changedShare(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  let changed = 0;
  for (let i = 0; i < x!.data.length; i += 3) {
    const d = Math.abs(x!.data[i]! - y!.data[i]!) + Math.abs(x!.data[i + 1]! - y!.data[i + 1]!) + Math.abs(x!.data[i + 2]! - y!.data[i + 2]!);
    if (d > 30) changed++;
  }
  return changed / (x!.info.width * x!.info.height);
}

/** The materials of the loaded model as three.js holds them: wireframe or not, and whether a colour texture is bound. */
function materials(page: Page): Promise<Array<{ wireframe: boolean; map: boolean }>> {
  return page.evaluate(() => {
    const mv = document.querySelector('[data-viewer] model-viewer') as unknown as Record<symbol, { model: { traverse(fn: (n: { material?: { wireframe: boolean; map: unknown } }) => void): void } }>;
    const key = Object.getOwnPropertySymbols(mv).find((s) => s.description === 'scene')!;
    const out: Array<{ wireframe: boolean; map: boolean }> = [];
    mv[key]!.model.traverse((n) => n.material && out.push({ wireframe: n.material.wireframe, map: n.material.map != null }));
    return out;
  });
}

describe('the controls of a 3D view', () => {
  let v: SiteVersion;
  let context: BrowserContext;
  let page: Page;
  let mv: Locator;
  const tool = (name: string) => page.locator('[data-viewer] .viewer-bar').getByRole('button', { name, exact: true });

  beforeAll(async () => {
    v = pickVersion(site.versions, 'mesh');
    context = await site.browser.newContext({ viewport: SCREENS.desktop });
    page = await context.newPage();
    await page.goto(`${site.server.origin}${v.pagePath}`);
    expect((await viewerOutcome(page, MESH_WAIT_MS)).state).toBe('loaded');
    await modelVisible(page);
    mv = page.locator('[data-viewer] .viewer-stage model-viewer');
    // model-viewer's prompt to drag moves the camera by itself after a while: the pictures compared here must hold still.
    await mv.evaluate((el) => el.setAttribute('interaction-prompt', 'none'));
  });
  afterAll(() => context?.close());

  it('are native buttons with names, and show where the keyboard is', async () => {
    const names = await page.locator('[data-viewer] .viewer-bar button:visible').evaluateAll((els) => els.map((el) => `${el.tagName} ${el.getAttribute('aria-label')}`));
    expect(names).toEqual(['BUTTON Auto-rotate', 'BUTTON Lighting', 'BUTTON Wireframe', 'BUTTON Textures', 'BUTTON Full screen']);
    await tool('Auto-rotate').focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { name: el.getAttribute('aria-label'), visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle };
    });
    expect(focused).toEqual({ name: 'Lighting', visible: true, outline: 'solid' });
    expect(await seriousAxeViolations(page, '[data-viewer]')).toEqual([]);
  });

  it('offers AR only in modes that show the verified scene, and no AR button where AR cannot start (headless Chromium has no WebXR)', async () => {
    expect(await mv.getAttribute('ar')).not.toBeNull();
    expect(await mv.getAttribute('ar-modes')).toBe(AR_MODES);
    expect(AR_MODES).not.toContain('scene-viewer');
    expect(await mv.evaluate((el) => (el as unknown as { canActivateAR: boolean }).canActivateAR)).toBe(false);
    const ar = page.locator('[data-viewer] .viewer-bar button[aria-label="View in AR"]');
    expect(await ar.count()).toBe(1);
    expect(await ar.isVisible()).toBe(false);
    // model-viewer's own AR button, which would offer Scene Viewer's second download elsewhere, is not shown either.
    expect(await mv.evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.slot.ar-button')!).display)).toBe('none');
  });

  it('turns auto-rotate off and on', async () => {
    const rotate = tool('Auto-rotate');
    const autoRotate = () => mv.evaluate((el) => (el as unknown as { autoRotate: boolean }).autoRotate);
    expect([await autoRotate(), await rotate.getAttribute('aria-pressed')]).toEqual([true, 'true']);
    await rotate.click();
    expect([await autoRotate(), await rotate.getAttribute('aria-pressed')]).toEqual([false, 'false']);
    await rotate.press('Enter');
    expect([await autoRotate(), await rotate.getAttribute('aria-pressed')]).toEqual([true, 'true']);
    await rotate.click();
  });

  it('changes the exposure with the lighting slider, by keyboard, and closes with Escape', async () => {
    const exposure = () => mv.evaluate((el) => (el as unknown as { exposure: number }).exposure);
    const lighting = tool('Lighting');
    expect(await exposure()).toBe(1);
    await lighting.click();
    expect(await lighting.getAttribute('aria-expanded')).toBe('true');
    const slider = page.getByRole('slider', { name: 'Exposure' });
    expect(await slider.isVisible()).toBe(true);
    const before = await stillShot(mv);
    for (let i = 0; i < 8; i++) await slider.press('ArrowRight');
    expect(await exposure()).toBeCloseTo(1.4, 5);
    expect(await page.locator('[data-viewer] .viewer-exposure output').textContent()).toBe('1.40');
    expect(await changedShare(before, await stillShot(mv))).toBeGreaterThan(0.01);
    await slider.press('Escape');
    expect(await slider.isVisible()).toBe(false);
    expect(await lighting.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Lighting');
    await lighting.click();
    for (let i = 0; i < 8; i++) await slider.press('ArrowLeft');
    expect(await exposure()).toBeCloseTo(1, 5);
    await lighting.click();
    expect(await slider.isVisible()).toBe(false);
  });

  it('draws the model as a wireframe, and back', async () => {
    const wireframe = tool('Wireframe');
    const solid = await stillShot(mv);
    await wireframe.click();
    expect(await wireframe.getAttribute('aria-pressed')).toBe('true');
    expect((await materials(page)).every((m) => m.wireframe)).toBe(true);
    const wires = await stillShot(mv);
    expect(await changedShare(solid, wires)).toBeGreaterThan(0.01);
    await wireframe.click();
    expect((await materials(page)).some((m) => m.wireframe)).toBe(false);
    expect(await changedShare(solid, await stillShot(mv))).toBeLessThan(0.002);
  });

  it('draws the model without its textures, and with them again', async () => {
    const textures = tool('Textures');
    expect((await materials(page)).some((m) => m.map)).toBe(true);
    const textured = await stillShot(mv);
    await textures.click();
    expect(await textures.getAttribute('aria-pressed')).toBe('false');
    expect((await materials(page)).some((m) => m.map)).toBe(false);
    expect(await changedShare(textured, await stillShot(mv))).toBeGreaterThan(0.01);
    await textures.click();
    expect((await materials(page)).some((m) => m.map)).toBe(true);
    expect(await changedShare(textured, await stillShot(mv))).toBeLessThan(0.002);
  });

  it('puts the stage in full screen and takes it out again', async () => {
    const button = tool('Full screen');
    await button.click();
    await page.waitForFunction(() => document.fullscreenElement !== null);
    expect(await page.evaluate(() => document.fullscreenElement?.matches('[data-viewer] .viewer-box'))).toBe(true);
    const exit = tool('Exit full screen');
    expect(await exit.isVisible()).toBe(true);
    await exit.click();
    await page.waitForFunction(() => document.fullscreenElement === null);
    expect(await tool('Full screen').isVisible()).toBe(true);
  });
});

describe('the stage while it loads', () => {
  for (const [screen, viewport] of [['desktop', SCREENS.desktop], ['phone', SCREENS.phone]] as const) {
    for (const kind of ['mesh', 'image-only'] as const) {
      it(`keeps its box from the first paint on a ${screen} for a ${kind} version: layout shift <= 0.05, in the first screen`, async () => {
        const v = pickVersion(site.versions, kind);
        const context = await site.browser.newContext({ viewport });
        const page = await context.newPage();
        try {
          await recordLayoutShift(page);
          // The box as the parser leaves it, before any script runs or any byte of the representation arrives.
          await page.addInitScript(() => {
            document.addEventListener('DOMContentLoaded', () => {
              const box = document.querySelector('[data-viewer] .viewer-box')!.getBoundingClientRect();
              (window as unknown as { firstBox: number[] }).firstBox = [box.x, box.y, box.width, box.height];
            });
          });
          await page.goto(`${site.server.origin}${v.pagePath}`);
          expect((await viewerOutcome(page, MESH_WAIT_MS)).state).toBe('loaded');
          if (kind === 'mesh') await modelVisible(page);
          const box = await page.locator('[data-viewer] .viewer-box').evaluate((el) => {
            const r = el.getBoundingClientRect();
            return [r.x, r.y + window.scrollY, r.width, r.height];
          });
          expect(box).toEqual(await page.evaluate(() => (window as unknown as { firstBox: number[] }).firstBox));
          expect(box[3]).toBeGreaterThan(200);
          expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);
          expect(await inFirstScreen(page, '[data-viewer] .viewer-box')).toBe(true);
          expect(await sidewaysOverflow(page)).toBe(0);
        } finally {
          await context.close();
        }
      }, MESH_WAIT_MS + 60_000);
    }
  }

  it('fills its container’s height with `fill`, and keeps 4:3 without', async () => {
    const v = pickVersion(site.versions, 'image-only');
    const context = await site.browser.newContext({ viewport: SCREENS.desktop });
    const page = await context.newPage();
    try {
      await page.goto(`${site.server.origin}${v.pagePath}`);
      const size = (fill: boolean) =>
        page.evaluate((fill) => {
          const root = document.querySelector<HTMLElement>('[data-viewer]')!;
          let frame = document.getElementById('frame');
          if (!frame) {
            frame = document.createElement('div');
            frame.id = 'frame';
            frame.style.cssText = 'width: 600px; height: 300px';
            document.body.prepend(frame);
            frame.append(root);
          }
          root.toggleAttribute('data-viewer-fill', fill);
          const box = root.querySelector('.viewer-box')!.getBoundingClientRect();
          return [box.width, box.height];
        }, fill);
      expect(await size(false)).toEqual([600, 450]);
      expect(await size(true)).toEqual([600, 300]);
    } finally {
      await context.close();
    }
  });
});

describe('a record page before the viewer asks for the model', () => {
  it('has loaded at most 20 KB of JavaScript; model-viewer comes after', async () => {
    const v = pickVersion(site.versions, 'mesh');
    const rep = shownRepresentation(v);
    const context = await site.browser.newContext({ viewport: SCREENS.desktop });
    const page = await context.newPage();
    const scripts: string[] = [];
    let before: string[] | undefined;
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
      if (!before && new URL(r.url()).pathname === servedPath(rep)) before = [...scripts];
    });
    try {
      await page.goto(`${site.server.origin}${v.pagePath}`);
      expect((await viewerOutcome(page, MESH_WAIT_MS)).state).toBe('loaded');
      if (!before) throw new Error('the viewer never requested the representation');
      expect(before.filter((u) => /model-viewer|mesh-controls|validate-worker/.test(u))).toEqual([]);
      expect(scripts.filter((u) => /model-viewer/.test(u))).toHaveLength(1);
      const sizes = await Promise.all(before.map(async (u) => (await context.request.get(u)).body().then((b) => b.byteLength)));
      expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20 * 1024);
    } finally {
      await context.close();
    }
  }, MESH_WAIT_MS + 60_000);
});

describe('startViewers', () => {
  it('starts a viewer added after the first call, and only that one', async () => {
    const v = pickVersion(site.versions, 'image-only');
    const rep = shownRepresentation(v);
    const context = await site.browser.newContext({ viewport: SCREENS.desktop });
    const page = await context.newPage();
    const downloads: string[] = [];
    page.on('request', (r) => r.resourceType() === 'fetch' && new URL(r.url()).pathname === servedPath(rep) && downloads.push(r.url()));
    try {
      await page.goto(`${site.server.origin}${v.pagePath}`);
      expect((await viewerOutcome(page)).state).toBe('loaded');
      expect(downloads).toHaveLength(1);
      await page.evaluate(async () => {
        // A second viewer from the page's own markup, as a page that adds viewers does.
        const html = await (await fetch(location.href)).text();
        const section = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-viewer]')!;
        section.id = 'added';
        document.body.append(document.adoptNode(section));
      });
      // Then the page's viewer script once more (a module of its own, which calls startViewers() of the same island).
      const entry = await page.locator('script[type="module"][src*="Viewer.astro"]').getAttribute('src');
      await page.addScriptTag({ type: 'module', content: `import ${JSON.stringify(`${entry}?again`)};` });
      await page.waitForFunction(() => document.getElementById('added')?.getAttribute('data-viewer-state') === 'loaded');
      expect(downloads).toHaveLength(2);
      expect(await page.locator('[data-viewer]').evaluateAll((els) => els.map((el) => el.getAttribute('data-viewer-state')))).toEqual(['loaded', 'loaded']);
      expect(await page.locator('#added .viewer-stage img').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
