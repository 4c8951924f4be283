/** The sample site served on loopback and a Chromium, for the browser tests of one file. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import { siteDir } from '../../support/site.ts';
import { serveStatic, type StaticServer } from '../../support/static-server.ts';
import { siteVersions, type SiteVersion } from './site-versions.ts';

/** What a file's tests share: the built site's folder, its server, the browser and the site's versions. */
export interface SampleSiteSession {
  dist: string;
  server: StaticServer;
  browser: Browser;
  versions: SiteVersion[];
}

/** Serves the sample site and launches Chromium before the file's tests (its fields are set then), and closes both after them. */
export function sampleSiteSession(): SampleSiteSession {
  const session = {} as SampleSiteSession;
  beforeAll(async () => {
    session.dist = siteDir();
    session.versions = await siteVersions(session.dist);
    session.server = await serveStatic(session.dist);
    session.browser = await launchBrowser();
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}
