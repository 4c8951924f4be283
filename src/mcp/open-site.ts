/** The `--site` argument as an origin the SDK can read: a site's URL as it is, or a built folder served on loopback. */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './mcp-options.ts';
import { serveSiteFolder } from './serve-site-folder.ts';

/** An open site. */
export interface OpenSite {
  origin: string;
  /** The folder served, or null for a URL. */
  folder: string | null;
  close(): Promise<void>;
}

/** A URL scheme of two letters or more (so that `C:\dist` stays a path). */
const SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/** Opens `site` (relative folders from `cwd`); throws {@link UsageError} naming `--site` for what cannot be a site. */
export async function openSite(site: string, cwd: string): Promise<OpenSite> {
  let folder: string;
  if (SCHEME.test(site)) {
    let url: URL;
    try {
      url = new URL(site);
    } catch {
      throw new UsageError(`--site "${site}" is not a URL`);
    }
    if (url.protocol === 'file:') {
      folder = fileURLToPath(url);
    } else if (url.protocol === 'http:' || url.protocol === 'https:') {
      if (url.pathname !== '/' || url.search || url.hash) {
        throw new UsageError(`--site ${site}: a registry site is read from the root of its origin (${url.origin}/api/v1/), so the URL can have no path, query or fragment`);
      }
      return { origin: url.origin, folder: null, close: async () => {} };
    } else {
      throw new UsageError(`--site ${site}: only http:, https: and file: URLs name a site`);
    }
  } else {
    folder = resolve(cwd, site);
  }
  const index = join(folder, 'api', 'v1', 'index.json');
  const found = await stat(index).catch(() => null);
  if (!found?.isFile()) throw new UsageError(`--site ${site}: ${folder} is not a built site (it has no api/v1/index.json); run npm run build, or pass the site's URL`);
  const server = await serveSiteFolder(folder);
  return { origin: server.origin, folder, close: () => server.close() };
}
