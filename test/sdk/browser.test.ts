/** The SDK bundled for browsers (esbuild, platform browser) and run in headless Chromium against the built sample site. */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import type { PageReport } from './support/browser-scenario.ts';

const scenario = fileURLToPath(new URL('./support/browser-scenario.ts', import.meta.url));
const PAGE = '/__sdk-test__/index.html';
const BUNDLE = '/__sdk-test__/scenario.js';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  // platform "browser": a `node:` import anywhere in the SDK would fail this build.
  const result = await build({ entryPoints: [scenario], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  const bundle = result.outputFiles[0]!.text;
  const html = `<!doctype html><meta charset="utf-8"><title>SDK test</title><script type="module" src="${BUNDLE}"></script>`;
  server = await serveStatic(siteDir(), (pathname) => {
    if (pathname === PAGE) return { body: html, type: 'text/html; charset=utf-8' };
    if (pathname === BUNDLE) return { body: bundle, type: 'text/javascript' };
    return undefined;
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the SDK in a browser', () => {
  it('lists, gets and verifies every version of the sample registry with WebCrypto', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.origin}${PAGE}`);
      await page.waitForFunction(() => 'sdkReport' in window);
      const report = (await page.evaluate(() => (window as unknown as { sdkReport: Promise<unknown> }).sdkReport)) as PageReport | { error: string };
      if ('error' in report) throw new Error(`in the page: ${report.error}`);

      expect(report.hasProcess).toBe(false);
      expect(report.objects).toBeGreaterThan(0);
      expect(report.versions.length).toBeGreaterThanOrEqual(report.objects);
      for (const v of report.versions) {
        expect(v.manifestMatches, v.key).toBe(true);
        expect(v.recordHash, v.key).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
        expect(v.checks.length, v.key).toBeGreaterThan(0);
        for (const c of v.checks) {
          expect(c, `${v.key} ${c.id}`).toMatchObject({ ok: true, complete: true });
          expect(c.url.startsWith(`${server.origin}/`), c.url).toBe(true);
        }
      }
      expect(report.latest).toMatch(/^\d+\.\d+\.\d+/);
      expect(report.wrongHash.ok).toBe(false);
      expect(report.wrongHash.actual).not.toBe(report.wrongHash.expected);
      expect(report.notFound).toEqual({ isNotFound: true, name: 'NotFoundError', code: 'not_found' });
    } finally {
      await page.close();
    }
  });
});
