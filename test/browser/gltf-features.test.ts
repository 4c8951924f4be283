/**
 * Real-world glTF on record pages: every extension `browser-gltf` declares is loaded from an asset that requires it
 * and seen drawn in Chromium, with every decoder from the site itself and no request to any other origin; skins, morph
 * targets and animation too; an asset requiring an unknown extension is Unsupported everywhere before anything is
 * fetched. The assets are made here with real encoders (see test/support/gltf-features.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noCompatibleText } from '@aso-registry/core/format/compatibility';
import { BROWSER_GLTF_EXTENSIONS } from '@aso-registry/core/format/gltf-extensions';
import { agentPath, apiPaths, versionPagePath } from '@aso-registry/core/format/paths';
import type { Manifest } from '@aso-registry/core/format/types';
import { createClient } from '@aso-registry/sdk';
import { launchBrowser } from '../support/browser.ts';
import { buildSite } from '../support/build-site.ts';
import { tempRegistry, writeVersion } from '../support/fixture-registry.ts';
import { featureAssets, TEXTURE_GREEN, TEXTURE_RED, unknownExtensionAsset, type FeatureAsset } from '../support/gltf-features.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { LARGE_FILE_BYTES } from '../../src/viewer/verify-bytes.ts';
import { viewerOutcome } from '../viewer/support/viewer-page.ts';

/** A PNG of random pixels of at least `bytes` bytes (noise does not compress). */
async function noisePng(bytes: number): Promise<Uint8Array> {
  const side = Math.ceil(Math.sqrt(bytes / 3)) + 16;
  const raw = Buffer.alloc(side * side * 3);
  let x = 2463534242;
  for (let i = 0; i < raw.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  const png = await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  if (png.byteLength < bytes) throw new Error(`the noise PNG has ${png.byteLength} bytes, fewer than ${bytes}`);
  return new Uint8Array(png);
}

const UNKNOWN = 'EXT_made_up_for_tests';

let parent: string;
let dist: string;
let server: StaticServer;
let browser: Browser;
let assets: FeatureAsset[];
const manifests = new Map<string, Manifest>();

/** The versions of the test registry: every feature but animation as the representations of one version (one page, one WebGL set-up), the animated model, and the unknown extension. */
const FEATURES = 'gltf-features';
const ANIMATED = 'gltf-animated';
const UNKNOWN_OBJECT = 'gltf-unknown-extension';
const LARGE = 'large-image';

beforeAll(async () => {
  assets = await featureAssets();
  const reg = await tempRegistry('aso-gltf-features-');
  parent = reg.parent;
  const glb = (id: string, bytes: Uint8Array) => ({ id, type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', bytes });
  const write = async (id: string, description: string, files: ReturnType<typeof glb>[]) =>
    manifests.set(id, await writeVersion(reg.root, { id, version: '1.0.0', name: id, description, files }));
  await write(FEATURES, 'one representation per glTF feature', assets.filter((a) => a.name !== 'animated').map((a) => glb(a.name, a.bytes)));
  await write(ANIMATED, 'a cube with two animations', [glb('mesh', assets.find((a) => a.name === 'animated')!.bytes)]);
  await write(UNKNOWN_OBJECT, 'a cube that requires an extension no runtime knows', [glb('mesh', await unknownExtensionAsset(UNKNOWN))]);
  await write(LARGE, 'a photo larger than the size from which the viewer hashes in slices', [{ id: 'photo', type: 'image', format: 'png', mediaType: 'image/png', bytes: await noisePng(LARGE_FILE_BYTES + 1_000_000) }]);
  dist = join(parent, 'dist');
  const built = await buildSite({ outDir: dist, registryDir: reg.root });
  if (built.code !== 0) throw new Error(`the build failed:\n${built.stdout}\n${built.stderr}`);
  server = await serveStatic(dist);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (parent) await rm(parent, { recursive: true, force: true });
});

/** A record page in a fresh context where every request to another origin is refused and recorded. */
async function openPage(name: string, options: { reducedMotion?: 'reduce' | 'no-preference' } = {}) {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1000, height: 900 }, reducedMotion: options.reducedMotion ?? 'no-preference' });
  const foreign: string[] = [];
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (new URL(url).origin === server.origin) return route.continue();
    foreign.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const m = manifests.get(name)!;
  await page.goto(`${server.origin}/${versionPagePath(m.id, m.version)}`);
  return { context, page, foreign, requests, errors };
}

/** Waits until model-viewer shows the model (not the poster) and reads the canvas's pixels. */
async function drawnPixels(page: Page) {
  const mv = page.locator('[data-viewer] model-viewer');
  await page.waitForFunction(() => (document.querySelector('model-viewer') as unknown as { modelIsVisible?: boolean } | null)?.modelIsVisible === true);
  const background = await mv.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [br, bg, bb] = (background.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  const { data, info } = await sharp(await mv.screenshot({ animations: 'disabled' })).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let drawn = 0;
  let green = 0;
  let red = 0;
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb) > 30) drawn++;
    if (g > r + 50 && g > b + 50) green++;
    if (r > g + 50 && r > b + 50) red++;
  }
  const area = info.width * info.height;
  return { drawn: drawn / area, green: green / area, red: red / area };
}

describe('the supported glTF extensions', () => {
  it('are exactly the ones an asset here requires and the tests below see drawn', () => {
    const required = new Set(assets.flatMap((a) => a.requires));
    expect([...required].sort()).toEqual([...BROWSER_GLTF_EXTENSIONS].sort());
  });

  it('are what the build read from each file: extensionsRequired and counts in agent.json and the API, every asset compatible', async () => {
    const m = manifests.get(FEATURES)!;
    const agent = JSON.parse(await readFile(join(dist, agentPath(m.id, m.version)), 'utf8'));
    const api = JSON.parse(await readFile(join(dist, apiPaths.version(m.id, m.version)), 'utf8'));
    for (const doc of [agent, api]) {
      for (const a of assets.filter((x) => x.name !== 'animated')) {
        const rep = doc.representations.find((r: { id: string }) => r.id === a.name);
        expect([...rep.gltf.extensionsRequired].sort(), a.name).toEqual([...a.requires].sort());
        expect(rep.runtimes, a.name).toEqual(['browser-gltf']);
        expect(rep.gltf, a.name).toMatchObject({ triangles: 12, animations: a.animations?.length ?? 0, skins: a.name === 'skin' ? 1 : 0, textures: a.mustShow ? 1 : 0 });
      }
    }
  });

  it('are listed in the inventory of the record page with the counts', async () => {
    const m = manifests.get(FEATURES)!;
    const html = await readFile(join(dist, versionPagePath(m.id, m.version), 'index.html'), 'utf8');
    const row = html.slice(html.indexOf('data-representation="draco"'), html.indexOf('</li>', html.indexOf('data-representation="draco"')));
    const item = (key: string) => new RegExp(`data-key="${key}"[^>]*><dt[^>]*>[^<]+</dt><dd[^>]*>([^<]*)</dd>`).exec(row)?.[1];
    expect(item('triangles')).toBe('12');
    expect(item('vertices')).toBe('24');
    expect(item('drawCalls')).toBe('1');
    expect(item('extensionsRequired')).toBe('KHR_draco_mesh_compression');
    expect(item('skins')).toBe('0');
  });
});

describe('each feature, inspected in turn on one record page', () => {
  const names = [
    'draco', 'meshopt', 'quantization', 'ktx2', 'webp', 'avif', 'texture-transform', 'emissive-strength', 'clearcoat', 'transmission',
    'volume', 'ior', 'sheen', 'specular', 'iridescence', 'anisotropy', 'dispersion', 'unlit', 'lights', 'variants', 'instancing', 'skin', 'morph',
  ];
  let session: Awaited<ReturnType<typeof openPage>>;
  beforeAll(async () => {
    session = await openPage(FEATURES);
  }, 120_000);
  afterAll(() => session?.context.close());

  it('covers every asset made, with texture colours that a white or untextured draw cannot give', () => {
    expect([...names, 'animated'].sort()).toEqual(assets.map((a) => a.name).sort());
    expect(TEXTURE_GREEN.g).toBeGreaterThan(TEXTURE_GREEN.r + 100);
    expect(TEXTURE_RED.r).toBeGreaterThan(TEXTURE_RED.g + 100);
  });

  for (const name of names) {
    it(`draws ${name}`, async () => {
      const asset = assets.find((a) => a.name === name)!;
      const { page } = session;
      // The page shows its first representation by itself; every other one through its Inspect control.
      if (name !== names[0]) {
        await page.locator(`button[data-inspect="${name}"]`).click();
        await page.waitForFunction((id) => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-representation') === id, name);
      }
      const outcome = await viewerOutcome(page);
      expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: name });
      let pixels = await drawnPixels(page);
      expect(pixels.drawn, `${name}: share of the canvas drawn`).toBeGreaterThan(0.01);
      if (asset.mustShow === 'green') expect(pixels.green, `${name}: share of texture green`).toBeGreaterThan(0.01);
      if (asset.mustHide === 'red') expect(pixels.red, `${name}: share of the hidden red`).toBeLessThan(0.0005);
      if (asset.variants) {
        // The orange cube turns green only through its variant.
        expect(pixels.green).toBeLessThan(0.0005);
        const mv = page.locator('[data-viewer] model-viewer');
        expect(await mv.evaluate((el) => (el as unknown as { availableVariants: string[] }).availableVariants)).toEqual(asset.variants);
        await mv.evaluate((el) => ((el as unknown as { variantName: string }).variantName = 'Green'));
        await expect.poll(async () => (pixels = await drawnPixels(page)).green).toBeGreaterThan(0.01);
      }
      expect(session.foreign).toEqual([]);
      expect(session.errors).toEqual([]);
    });
  }

  it('took every decoder from the site itself, once, and asked no other origin for anything', () => {
    const { requests, foreign } = session;
    for (const decoder of [
      /\/decoders\/three-[^/]+\/draco\/draco_decoder\.wasm$/,
      /\/decoders\/three-[^/]+\/draco\/draco_wasm_wrapper\.js$/,
      /\/decoders\/three-[^/]+\/basis\/basis_transcoder\.wasm$/,
      /\/decoders\/three-[^/]+\/basis\/basis_transcoder\.js$/,
      /\/decoders\/meshoptimizer-[^/]+\/meshopt_decoder\.js$/,
    ]) {
      expect(requests.filter((u) => decoder.test(u)), String(decoder)).toHaveLength(1);
    }
    expect(requests.every((u) => u.startsWith(`${server.origin}/`))).toBe(true);
    expect(foreign).toEqual([]);
  });
});

describe('an animated model', () => {
  it('names its animations, plays the first, and pauses and plays again from the keyboard', async () => {
    const { context, page, foreign } = await openPage(ANIMATED);
    try {
      expect((await viewerOutcome(page)).state).toBe('loaded');
      const box = page.locator('[data-viewer] .viewer-animation');
      await expect.poll(() => box.getAttribute('data-animation-state')).toBe('playing');
      expect(await box.locator('.viewer-animation-names').textContent()).toBe('2 animations: Spin, Pulse');
      expect(await box.locator('select option').allTextContents()).toEqual(['Spin', 'Pulse']);
      const mv = page.locator('[data-viewer] model-viewer');
      const state = () => mv.evaluate((el) => ({ name: (el as unknown as { animationName: string }).animationName, paused: (el as unknown as { paused: boolean }).paused, time: (el as unknown as { currentTime: number }).currentTime }));
      expect(await state()).toMatchObject({ name: 'Spin', paused: false });
      // Playing moves the time on; it may also wrap past the end of the loop, so only a change is asked for.
      const t0 = (await state()).time;
      await expect.poll(async () => (await state()).time).not.toBe(t0);

      const toggle = box.locator('button.viewer-animation-toggle');
      expect(await toggle.textContent()).toBe('Pause');
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await state()).toMatchObject({ paused: true });
      expect(await toggle.textContent()).toBe('Play');
      expect(await toggle.getAttribute('aria-label')).toBe('Play animation');
      const t1 = (await state()).time;
      await page.waitForTimeout(300);
      expect((await state()).time).toBe(t1);
      await page.keyboard.press('Space');
      expect(await state()).toMatchObject({ paused: false });
      expect(await box.getAttribute('data-animation-state')).toBe('playing');

      await box.locator('select').selectOption('Pulse');
      expect(await state()).toMatchObject({ name: 'Pulse', paused: false });
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('starts paused, without auto-rotate, when the reader prefers reduced motion; Play then moves the drawing', async () => {
    const { context, page } = await openPage(ANIMATED, { reducedMotion: 'reduce' });
    try {
      expect((await viewerOutcome(page)).state).toBe('loaded');
      const box = page.locator('[data-viewer] .viewer-animation');
      await expect.poll(() => box.getAttribute('data-animation-state')).toBe('paused');
      const mv = page.locator('[data-viewer] model-viewer');
      expect(await mv.getAttribute('auto-rotate')).toBeNull();
      expect(await mv.evaluate((el) => (el as unknown as { paused: boolean }).paused)).toBe(true);
      await page.waitForFunction(() => (document.querySelector('model-viewer') as unknown as { modelIsVisible?: boolean } | null)?.modelIsVisible === true);
      const shot = () => mv.screenshot({ animations: 'disabled' });
      const a = await shot();
      await page.waitForTimeout(400);
      expect((await shot()).equals(a)).toBe(true);
      await box.locator('button.viewer-animation-toggle').click();
      await page.waitForTimeout(700);
      expect((await shot()).equals(a)).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe('an asset that requires an extension no runtime knows', () => {
  const expectedReport = (): string =>
    noCompatibleText([{ id: 'mesh', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', gltf: { extensionsRequired: [UNKNOWN] } }]);

  it('writes the exact mismatch, joined with the others', () => {
    expect(expectedReport()).toBe(
      `No compatible representation: mesh/browser-gltf: extension "${UNKNOWN}" is not supported; expected ${BROWSER_GLTF_EXTENSIONS.join(', ')} | ` +
        'mesh/browser-image: type "mesh" is not supported; expected image; format "glb" is not supported; expected png, jpg, jpeg, webp, avif; media type "model/gltf-binary" is not supported; expected image/png, image/jpeg, image/webp, image/avif',
    );
  });

  it('is Unsupported on its record page with the exact report, and nothing is fetched', async () => {
    const { context, page, requests, foreign } = await openPage(UNKNOWN_OBJECT);
    try {
      const outcome = await viewerOutcome(page);
      expect(outcome).toMatchObject({ state: 'unsupported', label: 'Unsupported', text: 'Preview unavailable', report: expectedReport() });
      expect(outcome.states).toEqual([]);
      expect(await page.locator('.compatibility').getAttribute('data-compatible')).toBe('false');
      expect(await page.locator('.compatibility .bad').textContent()).toBe('No installed runtime');
      expect(await page.locator('.compatibility .report').textContent()).toBe(expectedReport());
      expect(requests.filter((u) => u.endsWith('/representations/mesh.glb'))).toEqual([]);
      expect(requests.filter((u) => /model-viewer|validate-worker/.test(u))).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is Unsupported once validated even when the page does not say so: the bytes are the judge', async () => {
    const m = manifests.get(UNKNOWN_OBJECT)!;
    const path = `/${versionPagePath(m.id, m.version)}`;
    const html = await readFile(join(dist, path, 'index.html'), 'utf8');
    const lying = html.replace(`"gltf":{"extensionsRequired":["${UNKNOWN}"]}`, '"gltf":{"extensionsRequired":[]}');
    expect(lying).not.toBe(html);
    server.setOverride((p) => (p === path || p === `${path}/` ? { body: lying, type: 'text/html; charset=utf-8' } : undefined));
    const { context, page } = await openPage(UNKNOWN_OBJECT);
    try {
      const outcome = await viewerOutcome(page);
      expect(outcome).toMatchObject({ state: 'unsupported', report: expectedReport() });
      expect(await page.locator('[data-viewer] model-viewer').count()).toBe(0);
    } finally {
      server.setOverride(undefined);
      await context.close();
    }
  });

  it('carries the same report in agent.json, the API and the SDK', async () => {
    const m = manifests.get(UNKNOWN_OBJECT)!;
    const named = expectedReport().slice('No compatible representation: '.length);
    const agent = JSON.parse(await readFile(join(dist, agentPath(m.id, m.version)), 'utf8'));
    expect(agent.representations[0]).toMatchObject({ runtimes: [], compatibility: named, gltf: { extensionsRequired: [UNKNOWN], extensionsUsed: [UNKNOWN] } });
    const client = createClient({ origin: server.origin });
    const version = await client.getObject(m.id, m.version);
    expect(version.representations[0]).toMatchObject({ runtimes: [], compatibility: named });
    expect(version.representations[0]!.reports[0]).toEqual({ runtime: 'browser-gltf', compatible: false, report: `extension "${UNKNOWN}" is not supported; expected ${BROWSER_GLTF_EXTENSIONS.join(', ')}` });
  });
});

describe('a large file', () => {
  it('shows a determinate progress bar while it downloads and while it is hashed, then loads', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: Array<[string, string, number, number]> = [];
      (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
      new MutationObserver(() => {
        const root = document.querySelector<HTMLElement>('[data-viewer]');
        const bar = root?.querySelector<HTMLProgressElement>('.viewer-progress');
        if (root && bar && !bar.hidden) seen.push([root.dataset.viewerState ?? '', bar.getAttribute('aria-label') ?? '', bar.value, bar.max]);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['value', 'max', 'hidden', 'data-viewer-state'] });
    });
    try {
      const m = manifests.get(LARGE)!;
      const rep = m.representations[0]!;
      await page.goto(`${server.origin}/${versionPagePath(m.id, m.version)}`);
      const outcome = await viewerOutcome(page);
      expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: 'photo' });
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: Array<[string, string, number, number]> }).progressSeen);
      const fetching = seen.filter(([state]) => state === 'fetching');
      const hashing = seen.filter(([state, label]) => state === 'verifying' && label === 'Bytes hashed');
      expect(fetching.length).toBeGreaterThan(1);
      expect(hashing.length).toBeGreaterThan(2);
      for (const [, , , max] of [...fetching, ...hashing]) expect(max).toBe(rep.byteLength);
      expect(fetching.every(([, label]) => label === 'Bytes received')).toBe(true);
      expect(hashing.map(([, , value]) => value)).toEqual([...hashing.map(([, , value]) => value)].sort((a, b) => a - b));
      expect(hashing.at(-1)![2]).toBe(rep.byteLength);
    } finally {
      await context.close();
    }
  });
});
