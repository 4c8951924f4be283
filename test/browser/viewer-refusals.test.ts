/** The inspection viewer refuses bytes that do not match the manifest, and glTF that fails validation; it never reaches `loaded` for them. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pickPresentable } from '@aso-registry/core/format/compatibility';
import type { Representation } from '@aso-registry/core/format/types';
import { pickRepresentation } from '../../src/viewer/viewer-config.ts';
import { pickVersion, servedPath, shownRepresentation, type SiteVersion } from '../viewer/support/site-versions.ts';
import { sampleSiteSession } from '../viewer/support/sample-site-session.ts';
import { MESH_WAIT_MS, recordViewerStates, transitions, viewerOutcome } from '../viewer/support/viewer-page.ts';

const FIXTURES = new URL('../fixtures/viewer/', import.meta.url);
const sri = (b: Uint8Array): string => `sha256-${createHash('sha256').update(b).digest('base64')}`;

let context: BrowserContext;
let page: Page;

const site = sampleSiteSession();

beforeEach(async () => {
  context = await site.browser.newContext();
  page = await context.newPage();
  await recordViewerStates(page);
});

afterEach(async () => {
  site.server.setOverride(undefined);
  await context.close();
});

/** The bytes the site serves for a representation. */
const realBytes = async (rep: Representation): Promise<Uint8Array> => new Uint8Array(await readFile(join(site.dist, servedPath(rep))));

/** Serves `bytes` in place of the representation's file, then opens the version's page and waits for the viewer. */
async function inspectWith(v: SiteVersion, rep: Representation, bytes: Uint8Array, html?: string) {
  const path = servedPath(rep);
  const pagePath = `${v.pagePath}index.html`;
  site.server.setOverride((pathname) => {
    if (pathname === path) return { body: bytes };
    if (html !== undefined && (pathname === v.pagePath || pathname === pagePath)) return { body: html, type: 'text/html; charset=utf-8' };
    return undefined;
  });
  await page.goto(`${site.server.origin}${v.pagePath}`);
  const outcome = await viewerOutcome(page);
  expect(outcome.states).not.toContain('loaded');
  expect(await page.locator('[data-viewer] .viewer-stage > *').count()).toBe(0);
  return outcome;
}

/** The record page with the viewer's declared byteLength and hash of `rep` replaced, as a manifest for other bytes would say. */
async function pageDeclaring(v: SiteVersion, rep: Representation, bytes: Uint8Array): Promise<string> {
  const html = await readFile(join(site.dist, v.pagePath, 'index.html'), 'utf8');
  const declared = `${JSON.stringify(rep.url)},"byteLength":${rep.byteLength},"hash":${JSON.stringify(rep.hash)}`;
  const [before, config, after] = html.split(/(<script type="application\/json" class="viewer-config">[\s\S]*?<\/script>)/);
  if (!config?.includes(declared)) throw new Error(`the viewer config of ${v.pagePath} does not declare ${rep.id} as expected`);
  return `${before}${config.replace(declared, `${JSON.stringify(rep.url)},"byteLength":${bytes.byteLength},"hash":"${sri(bytes)}"`)}${after}`;
}

/** The record page with a viewer that shows only `rep`, declared with the length and hash of `bytes`. */
async function pageInspecting(v: SiteVersion, rep: Representation, bytes: Uint8Array): Promise<string> {
  const html = await readFile(join(site.dist, v.pagePath, 'index.html'), 'utf8');
  const [before, config, after] = html.split(/(<script type="application\/json" class="viewer-config">[\s\S]*?<\/script>)/);
  if (!config) throw new Error(`${v.pagePath} has no viewer config`);
  const data = JSON.parse(config.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '')) as Record<string, unknown>;
  const only = { ...pickRepresentation(rep), byteLength: bytes.byteLength, hash: sri(bytes) };
  const text = JSON.stringify({ ...data, representations: [only], preview: undefined }).replace(/</g, '\\u003c');
  return `${before}<script type="application/json" class="viewer-config">${text}</script>${after}`;
}

describe('viewer refusals', () => {
  it.each(['mesh', 'image-only'] as const)('refuses a %s representation with one byte changed: hash mismatch, expected and actual', async (kind) => {
    const v = pickVersion(site.versions, kind);
    const rep = shownRepresentation(v);
    const bytes = await realBytes(rep);
    const changed = bytes.slice();
    const at = Math.floor(changed.length / 2);
    changed[at] = changed[at]! ^ 0x01;
    const outcome = await inspectWith(v, rep, changed);
    expect(outcome).toMatchObject({ state: 'failed', label: 'Failed', reason: 'hash', representation: rep.id });
    expect(outcome.text).toBe(`${rep.id}.${rep.format}: hash mismatch: expected ${rep.hash}, got ${sri(changed)}`);
    expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'failed']);
  });

  it('shows a mesh without a poster when the preview fails its checks, and never shows the bad preview', async () => {
    const v = site.versions.find((x) => x.manifest.preview && pickPresentable(x.manifest.representations)?.runtime === 'browser-gltf');
    const preview = v?.manifest.preview;
    if (!v || !preview) throw new Error('the sample site has no mesh version with a preview');
    const changed = (await realBytes(preview)).slice();
    const last = changed.length - 1;
    changed[last] = changed[last]! ^ 0xff;
    site.server.setOverride((pathname) => (pathname === servedPath(preview) ? { body: changed } : undefined));
    await page.goto(`${site.server.origin}${v.pagePath}`);
    const outcome = await viewerOutcome(page, MESH_WAIT_MS);
    expect(outcome, outcome.text).toMatchObject({ state: 'loaded', representation: shownRepresentation(v).id });
    expect(await page.locator('[data-viewer] model-viewer').getAttribute('poster')).toBeNull();
    await page.waitForFunction(() => document.querySelector('[data-viewer] .viewer-poster')?.hasAttribute('data-poster'));
    expect(await page.locator('[data-viewer] .viewer-poster').getAttribute('data-poster')).toBe('refused');
    expect(await page.locator('[data-viewer] .viewer-poster img').count()).toBe(0);
  }, MESH_WAIT_MS + 30_000);

  it('never shows a preview whose length and hash match but that is cut short: the drawn placeholder stays', async () => {
    const v = site.versions.find((x) => x.manifest.preview && pickPresentable([x.manifest.preview])?.runtime === 'browser-image');
    const preview = v?.manifest.preview;
    if (!v || !preview) throw new Error('the sample site has no version with an image preview');
    const short = (await realBytes(preview)).slice(0, Math.floor(preview.byteLength / 2));
    const html = await pageDeclaring(v, preview, short);
    site.server.setOverride((pathname) => {
      if (pathname === servedPath(preview)) return { body: short };
      if (pathname === v.pagePath || pathname === `${v.pagePath}index.html`) return { body: html, type: 'text/html; charset=utf-8' };
      return undefined;
    });
    await page.goto(`${site.server.origin}${v.pagePath}`);
    const poster = page.locator('[data-viewer] .viewer-poster');
    await page.waitForFunction(() => document.querySelector('[data-viewer] .viewer-poster')?.hasAttribute('data-poster'));
    expect(await poster.getAttribute('data-poster')).toBe('refused');
    expect(await poster.locator('img').count()).toBe(0);
    expect(await poster.locator('.viewer-placeholder').evaluate((el) => getComputedStyle(el).display)).not.toBe('none');
  });

  it.each([
    ['a JPEG cut in half', 'jpg', (b: Uint8Array) => b.slice(0, Math.floor(b.length / 2))],
    ['a JPEG without its last two bytes (the end-of-image marker)', 'jpg', (b: Uint8Array) => b.slice(0, b.length - 2)],
    ['a PNG without its last chunks', 'png', (b: Uint8Array) => b.slice(0, b.length - 64)],
  ] as const)('refuses %s whose length and hash match: it does not decode whole, so it is never loaded', async (_, format, cut) => {
    const images = site.versions.flatMap((x) => [...x.manifest.representations, ...(x.manifest.preview ? [x.manifest.preview] : [])].map((r) => ({ v: x, rep: r })));
    const found = images.find(({ rep }) => rep.type === 'image' && rep.format === format);
    if (!found) throw new Error(`the sample site has no ${format} image`);
    const { v, rep } = found;
    const bytes = cut(await realBytes(rep));
    const outcome = await inspectWith(v, rep, bytes, await pageInspecting(v, rep, bytes));
    expect(outcome).toMatchObject({ state: 'failed', label: 'Failed', reason: 'render', representation: rep.id });
    expect(outcome.text.startsWith(`${rep.id}.${format}: the browser cannot decode these bytes as ${rep.mediaType} (cut short or corrupt?): `), outcome.text).toBe(true);
    expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'failed']);
  });

  it('refuses a truncated file: byte length mismatch, expected and actual', async () => {
    const v = pickVersion(site.versions, 'mesh');
    const rep = shownRepresentation(v);
    const short = (await realBytes(rep)).slice(0, Math.floor(rep.byteLength / 2));
    const outcome = await inspectWith(v, rep, short);
    expect(outcome).toMatchObject({ state: 'failed', reason: 'byte-length' });
    expect(outcome.text).toBe(`${rep.id}.${rep.format}: byte length mismatch: expected ${rep.byteLength}, got ${short.byteLength}`);
    expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'failed']);
  });

  it('stops reading a file that runs past its declared length', async () => {
    const v = pickVersion(site.versions, 'mesh');
    const rep = shownRepresentation(v);
    const bytes = await realBytes(rep);
    const longer = new Uint8Array(bytes.byteLength + 64);
    longer.set(bytes);
    const outcome = await inspectWith(v, rep, longer);
    expect(outcome).toMatchObject({ state: 'failed', reason: 'byte-length' });
    expect(outcome.text).toContain(`byte length mismatch: expected ${rep.byteLength}, got more than ${rep.byteLength}`);
    expect(transitions(outcome.states)).toEqual(['fetching', 'failed']);
  });

  it('refuses a glTF whose length and hash match but that fails gltf-validator, with its first error', async () => {
    const v = pickVersion(site.versions, 'mesh');
    const rep = shownRepresentation(v);
    const invalid = new Uint8Array(await readFile(new URL('invalid-accessor.gltf', FIXTURES)));
    const outcome = await inspectWith(v, rep, invalid, await pageDeclaring(v, rep, invalid));
    expect(outcome).toMatchObject({ state: 'failed', reason: 'validation' });
    expect(outcome.text).toBe(
      `${rep.id}.${rep.format}: /accessors/0: gltf-validator ACCESSOR_TOO_LONG: Accessor (offset: 0, length: 108) does not fit referenced bufferView [0] length 48.`,
    );
    expect(transitions(outcome.states)).toEqual(['fetching', 'verifying', 'failed']);
  });

  it('refuses a glTF that points at a file outside itself', async () => {
    const v = pickVersion(site.versions, 'mesh');
    const rep = shownRepresentation(v);
    const external = new Uint8Array(await readFile(new URL('external-buffer.gltf', FIXTURES)));
    const outcome = await inspectWith(v, rep, external, await pageDeclaring(v, rep, external));
    expect(outcome).toMatchObject({ state: 'failed', reason: 'validation' });
    expect(outcome.text).toContain('/buffers/0/uri: references the external file "square.bin"');
  });
});
