/** The record page of the built sample site in Chromium: viewer first, the summary beside it, provenance, snippets, and a badge that says only what the browser confirmed. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '@aso-registry/core/documents/format-bytes';
import { formatDate } from '@aso-registry/core/documents/format-date';
import { recordSnippets } from '@aso-registry/core/documents/record-snippets';
import { sriToHex } from '@aso-registry/core/format/sri';
import { inFirstScreen, layoutShift, recordLayoutShift, SCREENS, seriousAxeViolations, sidewaysOverflow } from '../support/page-quality.ts';
import { servedPath, shownRepresentation, type SiteVersion } from '../viewer/support/site-versions.ts';
import { sampleSiteSession } from '../viewer/support/sample-site-session.ts';

const ORIGIN = 'https://registry.example.org';
/** The sample pages the issue names: a mesh, its prerelease, a correction, a point cloud and an image. */
const SAMPLES = ['oak-chair@1.1.0', 'oak-chair@2.0.0-beta.1', 'brass-lantern@1.0.1', 'granite-boulder@1.0.0', 'field-photo@1.0.0'];


const site = sampleSiteSession();

const version = (key: string): SiteVersion => {
  const found = site.versions.find((v) => `${v.manifest.id}@${v.manifest.version}` === key);
  if (!found) throw new Error(`the sample site has no ${key}`);
  return found;
};

/** Waits until the viewer and the verification badge have both settled. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      ['loaded', 'failed', 'unsupported'].includes(document.querySelector('[data-viewer]')?.getAttribute('data-viewer-state') ?? '') &&
      document.querySelector('[data-verification]')?.getAttribute('data-verification-state') !== 'checking',
    null,
    { timeout: 60_000 },
  );
}

async function open(context: BrowserContext, v: SiteVersion): Promise<Page> {
  const page = await context.newPage();
  await recordLayoutShift(page);
  await page.goto(`${site.server.origin}${v.pagePath}`);
  return page;
}

const badge = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-verification]')!;
    return { state: el.dataset.verificationState, label: el.querySelector('.verification-label')!.textContent };
  });

/** The checks of a record page at one screen size, on one page load (a mesh in software WebGL is slow to set up). */
function firstScreenChecks(name: 'desktop' | 'phone', get: () => Page): void {
  it('shows the viewer, the first Download button and the licence badge in the first screen', async () => {
    for (const selector of ['[data-viewer]', '.downloads a[data-download]', '[data-license-badge]']) {
      expect(await inFirstScreen(get(), selector), selector).toBe(true);
    }
  });

  it(`gives the viewer ${name === 'desktop' ? 'at least half' : 'all'} of the main column's width`, async () => {
    const { viewer, main } = await get().evaluate(() => {
      const m = document.querySelector('main')!;
      const style = getComputedStyle(m);
      return {
        viewer: document.querySelector('[data-viewer]')!.getBoundingClientRect().width,
        main: m.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      };
    });
    if (name === 'desktop') expect(viewer).toBeGreaterThanOrEqual(main / 2);
    else expect(viewer).toBeGreaterThanOrEqual(main - 1);
  });

  it('shifts its layout by at most 0.05 while the viewer loads, and does not scroll sideways', async () => {
    expect(await layoutShift(get())).toBeLessThanOrEqual(0.05);
    expect(await sidewaysOverflow(get())).toBe(0);
  });

  it('has no serious or critical axe violation', async () => {
    expect(await seriousAxeViolations(get())).toEqual([]);
  });
}

describe('a mesh version on a phone screen', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await site.browser.newContext({ viewport: SCREENS.phone });
    page = await open(context, version('oak-chair@1.1.0'));
    await settled(page);
  }, 90_000);
  afterAll(() => context?.close());

  firstScreenChecks('phone', () => page);
});

describe('a mesh version on a desktop screen', () => {
  const v = () => version('oak-chair@1.1.0');
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await site.browser.newContext({ viewport: SCREENS.desktop, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await open(context, v());
    await settled(page);
  }, 90_000);
  afterAll(() => context?.close());

  firstScreenChecks('desktop', () => page);

  it('has a badge that says Checking… in the page as built, and Verified once the viewer matched the SHA-256 and the log check passed', async () => {
    const html = await readFile(join(site.dist, v().pagePath, 'index.html'), 'utf8');
    expect(html).toMatch(/data-verification-state="checking"[\s\S]*?class="verification-label"[^>]*>Checking…</);
    expect(await badge(page)).toEqual({ state: 'verified', label: expect.stringMatching(/^Verified: SHA-256 matches, in the log/) });
    expect(await page.locator('[data-viewer]').getAttribute('data-viewer-state')).toBe('loaded');
  });

  it('has copy buttons that put the exact snippets on the clipboard', async () => {
    const rep = shownRepresentation(v());
    const { id, version: ver } = v().manifest;
    const expected = recordSnippets({
      id,
      version: ver,
      registryUrl: ORIGIN,
      manifestUrl: `${ORIGIN}${v().pagePath}aso.object.json`,
      file: { url: rep.url, name: `${rep.id}.${rep.format}`, sha256: sriToHex(rep.hash) },
    });
    expect(expected.find((s) => s.key === 'sdk')!.text).toContain(`getObject('${id}', '${ver}')`);
    const buttons = page.locator('button[data-copy]');
    expect(await buttons.count()).toBe(expected.length);
    for (const [i, snippet] of expected.entries()) {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await buttons.nth(i).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(snippet.text);
      expect(await page.locator(`[data-snippet="${snippet.key}"] pre`).textContent()).toBe(snippet.text);
    }
  });

  it('presses the Inspect button of the file the viewer shows', async () => {
    const shown = shownRepresentation(v()).id;
    const other = v().manifest.representations.find((r) => r.id !== shown)!.id;
    expect(await page.locator(`.inspect-list [data-inspect="${shown}"]`).getAttribute('aria-pressed')).toBe('true');
    await page.locator(`.inspect-list [data-inspect="${other}"]`).click();
    await page.waitForFunction((id) => document.querySelector('[data-viewer]')?.getAttribute('data-viewer-representation') === id, other);
    expect(await page.locator(`.inspect-list [data-inspect="${other}"]`).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator(`.inspect-list [data-inspect="${shown}"]`).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('at 360 px', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await site.browser.newContext({ viewport: SCREENS.narrow });
  });
  afterAll(() => context?.close());

  it.each(SAMPLES)('%s does not scroll sideways, with everything folded opened', async (key) => {
    const page = await context.newPage();
    await page.goto(`${site.server.origin}${version(key).pagePath}`, { waitUntil: 'load' });
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.close();
  });
});

describe('the summary beside the viewer', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await site.browser.newContext({ viewport: SCREENS.desktop });
  });
  afterAll(() => context?.close());

  it('has a Download button per representation: its href is the file, its label the format and the human size', async () => {
    const v = version('brass-lantern@1.0.1');
    const page = await open(context, v);
    const buttons = await page.locator('.downloads a[data-download]').evaluateAll((els) =>
      els.map((a) => ({ href: new URL((a as HTMLAnchorElement).href).pathname, label: (a as HTMLElement).innerText.replace(/\s+/g, ' ') })),
    );
    expect(buttons.map((b) => b.href)).toEqual(v.manifest.representations.map(servedPath));
    v.manifest.representations.forEach((rep, i) => {
      expect(buttons[i]!.label).toContain(`Download ${rep.format.toUpperCase()}`);
      expect(buttons[i]!.label).toContain(formatBytes(rep.byteLength));
    });
    expect(buttons[0]!.label).toMatch(/\d(\.\d)? KB/);
    await page.close();
  });

  it('lists every version in the picker, newest first, with the prerelease and the retracted version marked', async () => {
    const page = await open(context, version('oak-chair@1.1.0'));
    await page.locator('[data-version-picker] > summary').click();
    const listed = await page.locator('[data-version-picker] li').evaluateAll((lis) =>
      lis.map((li) => ({ version: li.getAttribute('data-version'), text: (li as HTMLElement).innerText, visible: (li as HTMLElement).offsetParent !== null })),
    );
    expect(listed.map((l) => l.version)).toEqual(['2.0.0-beta.1', '1.1.0', '1.0.0']);
    expect(listed.every((l) => l.visible)).toBe(true);
    expect(listed[0]!.text).toContain('prerelease');
    expect(listed.slice(1).some((l) => l.text.includes('prerelease'))).toBe(false);
    expect(listed[1]!.text).toContain('latest');
    await page.close();
    const lantern = await open(context, version('brass-lantern@1.0.1'));
    const marks = await lantern.locator('[data-version-picker] li').evaluateAll((lis) => lis.map((li) => `${li.getAttribute('data-version')}: ${li.textContent}`));
    expect(marks.find((m) => m.startsWith('1.0.0:'))).toContain('retracted');
    expect(marks.find((m) => m.startsWith('1.0.1:'))).not.toContain('retracted');
    await lantern.close();
  });

  it('writes dates for people inside <time datetime>, and the publisher', async () => {
    const v = version('granite-boulder@1.0.0');
    const html = await readFile(join(site.dist, v.pagePath, 'index.html'), 'utf8');
    const publication = JSON.parse(await readFile(join(site.dist, 'api/v1/objects/granite-boulder/versions/1.0.0.json'), 'utf8')).publication;
    const page = await open(context, v);
    const meta = await page.locator('.record-meta').evaluate((dl) => ({
      text: (dl as HTMLElement).innerText.replace(/\s+/g, ' '),
      times: [...dl.querySelectorAll('time')].map((t) => [t.getAttribute('datetime'), t.textContent]),
      publisherTitle: dl.querySelector('code')?.getAttribute('title'),
    }));
    expect(meta.times).toEqual([
      [publication.publishedAt, formatDate(publication.publishedAt)],
      [v.manifest.createdAt, formatDate(v.manifest.createdAt)],
    ]);
    expect(meta.text).toContain(`Publisher ${publication.publisher}`);
    expect(meta.publisherTitle).toContain(publication.publisher);
    expect(html).not.toMatch(/<time[^>]*>\d{4}-\d\d-\d\dT/);
    await page.close();
  });

  it('gives the facts of the mesh the viewer shows, and a dash for what a point cloud does not have', async () => {
    const v = version('oak-chair@1.1.0');
    const rep = shownRepresentation(v);
    const agent = JSON.parse(await readFile(join(site.dist, v.pagePath, 'agent.json'), 'utf8'));
    const inventory = agent.representations.find((r: { id: string }) => r.id === rep.id).gltf;
    const facts = async (p: Page) => p.locator('[data-fact]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-fact'), e.querySelector('dd')!.textContent])));
    const page = await open(context, v);
    const shown = await facts(page);
    expect(shown.triangles).toBe(inventory.triangles.toLocaleString('en-US'));
    expect(shown.vertices).toBe(inventory.vertices.toLocaleString('en-US'));
    expect(shown.materials).toBe(String(inventory.materials));
    expect(inventory.dimensions).toHaveLength(3);
    expect(shown.dimensions).toMatch(/^[\d.]+ × [\d.]+ × [\d.]+ m$/);
    await page.close();
    const cloud = await open(context, version('granite-boulder@1.0.0'));
    expect(Object.values(await facts(cloud))).toEqual(Array(6).fill('—'));
    await cloud.close();
  });
});

describe('provenance', () => {
  it('shows the prompt and the reference image, drawn from the site', async () => {
    const v = version('brass-lantern@1.0.1');
    const context = await site.browser.newContext({ viewport: SCREENS.phone });
    try {
      const page = await open(context, v);
      const prompt = (v.manifest.provenance.prompt as { source: string }).source;
      expect(await page.locator('.provenance [data-prompt]').textContent()).toBe(prompt);
      const img = page.locator('.provenance img[data-provenance-image]');
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const el = document.querySelector<HTMLImageElement>('.provenance img[data-provenance-image]');
        return el !== null && el.complete && el.naturalWidth > 0;
      });
      const reference = v.manifest.representations.find((r) => r.id === 'reference')!;
      expect(new URL((await img.getAttribute('src'))!, site.server.origin).pathname).toBe(servedPath(reference));
    } finally {
      await context.close();
    }
  });

  it('links a correction to the version it corrects, and the corrected version to its correction', async () => {
    const corrected = await readFile(join(site.dist, 'objects/brass-lantern/versions/1.0.0/index.html'), 'utf8');
    const correction = await readFile(join(site.dist, 'objects/brass-lantern/versions/1.0.1/index.html'), 'utf8');
    expect(correction).toMatch(/data-corrects="brass-lantern@1\.0\.0"[^>]*>[\s\S]*?<a href="\/objects\/brass-lantern\/versions\/1\.0\.0\/"[^>]*>brass-lantern 1\.0\.0<\/a>/);
    expect(corrected).toMatch(/data-corrected-by="brass-lantern@1\.0\.1"[^>]*>[\s\S]*?<a href="\/objects\/brass-lantern\/versions\/1\.0\.1\/"[^>]*>brass-lantern 1\.0\.1<\/a>/);
    expect(corrected).not.toContain('data-corrects=');
    expect(correction).not.toContain('data-corrected-by=');
  });
});

describe('the verification badge', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await site.browser.newContext({ viewport: SCREENS.desktop });
  });
  afterAll(async () => {
    site.server.setOverride(undefined);
    await context?.close();
  });

  it('says failed when the bytes served are not the published ones', async () => {
    const v = version('oak-chair@1.1.0');
    const rep = shownRepresentation(v);
    const bytes = new Uint8Array(await readFile(join(site.dist, servedPath(rep))));
    const at = bytes.length >> 1;
    bytes[at] = bytes[at]! ^ 0x01;
    site.server.setOverride((path) => (path === servedPath(rep) ? { body: bytes } : undefined));
    try {
      const page = await open(context, v);
      await settled(page);
      expect(await badge(page)).toEqual({ state: 'failed', label: 'Failed: SHA-256 does not match' });
      await page.close();
    } finally {
      site.server.setOverride(undefined);
    }
  });

  it('claims no SHA-256 match for a version no runtime here can load', async () => {
    const page = await open(context, version('granite-boulder@1.0.0'));
    await settled(page);
    const shown = await badge(page);
    expect(shown.state).toBe('verified');
    expect(shown.label).toMatch(/^Verified: in the log/);
    expect(shown.label).not.toContain('SHA-256');
    await page.close();
  });
});
