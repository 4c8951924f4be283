/** Launches a headless Chromium that needs no download: the system's when present, else @sparticuz/chromium's. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chromium to launch. @sparticuz/chromium unpacks its binary on first use, and a second test file asking meanwhile
 * finds the half-written file and fails to start it (ETXTBSY): the global setup asks first, before any test file runs.
 */
export async function executablePath(): Promise<string> {
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  const sparticuz = (await import('@sparticuz/chromium')).default;
  return sparticuz.executablePath();
}

/** A headless browser with software WebGL, for rendering tests. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: await executablePath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
