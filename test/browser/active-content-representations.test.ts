/**
 * A registry that tries to publish an HTML page and an SVG image, each with a script, as representations: the build
 * stops on the check's problems, nothing of them reaches dist/, and Chromium on a plain static server that serves by
 * extension and ignores `_headers` runs no script of them. A control page outside dist/ proves the probe sees a script
 * that runs.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sirv from 'sirv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { buildSite, type BuildResult } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

/** Sets a mark on the window that opened it: any page of ours that runs it fails the test. */
const SCRIPT = 'window.__activeContentRan = true';
const HTML = `<!doctype html><title>mesh</title><script>${SCRIPT}</script>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>${SCRIPT}</script><rect width="8" height="8"/></svg>`;
const V = 'objects/box/versions/1.1.0';

let parent: string;
let control: string;
let dist: string;
let secondBuild: BuildResult;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const reg = await tempRegistry('aso-active-content-');
  parent = reg.parent;
  dist = join(parent, 'dist');
  const png = { id: 'reference', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() };
  await writeVersion(reg.root, { id: 'box', version: '1.0.0', files: [png] });
  const first = await buildSite({ outDir: dist, registryDir: reg.root, cacheDir: join(parent, 'cache') });
  if (first.code !== 0) throw new Error(`the clean registry did not build:\n${first.stdout}${first.stderr}`);

  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  await writeVersion(reg.root, {
    id: 'box',
    version: '1.1.0',
    files: [png, { id: 'mesh', type: 'mesh', format: 'html', mediaType: 'text/html', bytes: encode(HTML) }, { id: 'pic', type: 'image', format: 'svg', mediaType: 'image/svg+xml', bytes: encode(SVG) }],
  });
  secondBuild = await buildSite({ outDir: dist, registryDir: reg.root, cacheDir: join(parent, 'cache') });

  // The control: the same bytes served by the same server from outside dist/.
  control = await mkdtemp(join(tmpdir(), 'aso-active-control-'));
  await mkdir(join(control, 'control'));
  await writeFile(join(control, 'control', 'mesh.html'), HTML);
  await writeFile(join(control, 'control', 'pic.svg'), SVG);
  const site = sirv(dist, { dev: true, extensions: ['html'] });
  const controls = sirv(control, { dev: true });
  server = createServer((req, res) => {
    const notFound = (): void => void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (req.url?.startsWith('/control/')) controls(req, res, notFound);
    else site(req, res, notFound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  if (parent) await rm(parent, { recursive: true, force: true });
  if (control) await rm(control, { recursive: true, force: true });
});

/** Opens `path` in a fresh page: the response's status and content type, and whether a script of ours ran there. */
async function open(path: string): Promise<{ status: number; type: string; ran: boolean }> {
  const page = await browser.newPage();
  try {
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    const ran = await page.evaluate(() => (window as unknown as { __activeContentRan?: boolean }).__activeContentRan === true);
    return { status: response?.status() ?? 0, type: response?.headers()['content-type'] ?? '', ran };
  } finally {
    await page.close();
  }
}

describe('HTML and SVG representations with a script', () => {
  it('stop the build, which names both files and says why', () => {
    expect(secondBuild.code).not.toBe(0);
    const output = secondBuild.stdout + secondBuild.stderr;
    expect(output).toContain(`registry/${V}/aso.object.json: /representations/1/format: representations/mesh.html is refused`);
    expect(output).toContain(`registry/${V}/aso.object.json: /representations/1/mediaType: representations/mesh.html is refused: media type "text/html"`);
    expect(output).toContain(`registry/${V}/aso.object.json: /representations/2/format: representations/pic.svg is refused`);
    expect(output).toContain(`registry/${V}/aso.object.json: /representations/2/mediaType: representations/pic.svg is refused: media type "image/svg+xml"`);
  });

  it('never reach dist/: no representation there is HTML, SVG, XML or JavaScript', async () => {
    const files = (await readdir(dist, { recursive: true })).map((f) => f.split('\\').join('/'));
    expect(files.some((f) => f.startsWith('objects/box/versions/1.0.0/'))).toBe(true);
    expect(files.filter((f) => f.startsWith(`${V}/`) || /\/representations\/.*\.(html?|svgz?|xml|m?js)$/i.test(f))).toEqual([]);
  });

  it('run no script in Chromium on a static server that ignores _headers, where the same bytes outside dist/ would run', async () => {
    // The probe sees a script that runs: the same files, served the same way from outside dist/.
    expect(await open('/control/mesh.html')).toEqual({ status: 200, type: expect.stringContaining('text/html'), ran: true });
    expect(await open('/control/pic.svg')).toEqual({ status: 200, type: expect.stringContaining('image/svg+xml'), ran: true });
    for (const path of [`/${V}/representations/mesh.html`, `/${V}/representations/pic.svg`, `/${V}/`]) {
      expect(await open(path), path).toEqual({ status: 404, type: expect.any(String), ran: false });
    }
    const record = await open('/objects/box/versions/1.0.0/');
    expect(record).toEqual({ status: 200, type: expect.stringContaining('text/html'), ran: false });
  });
});
