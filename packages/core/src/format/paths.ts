/** Paths and URLs of the registry tree and of the site (DESIGN §4-5). All paths are relative, without a leading slash. */

/** `objects/<id>/versions/<version>`. */
export function versionDir(id: string, version: string): string {
  return `objects/${id}/versions/${version}`;
}

/** `objects/<id>/versions/<version>/representations/<rep>.<format>`. */
export function representationPath(id: string, version: string, repId: string, format: string): string {
  return `${versionDir(id, version)}/representations/${repId}.${format}`;
}

/** The `url` a representation must declare. */
export function representationUrl(registryUrl: string, id: string, version: string, repId: string, format: string): string {
  return `${trimSlash(registryUrl)}/${encodePath(representationPath(id, version, repId, format))}`;
}

/** The site path of a version's manifest. */
export function manifestPath(id: string, version: string): string {
  return `${versionDir(id, version)}/aso.object.json`;
}

/** The site path of a version's agent discovery document. */
export function agentPath(id: string, version: string): string {
  return `${versionDir(id, version)}/agent.json`;
}

/** The site path of a version's record page (a folder with index.html). */
export function versionPagePath(id: string, version: string): string {
  return `${versionDir(id, version)}/`;
}

/** The site path of a version's embed page: its viewer alone, for iframes on other sites. */
export function embedPagePath(id: string, version: string): string {
  return `${versionDir(id, version)}/embed/`;
}

/** The site path of a version's oEmbed document. */
export function oembedPath(id: string, version: string): string {
  return `${versionDir(id, version)}/oembed.json`;
}

/** The site path of an object's page. */
export function objectPagePath(id: string): string {
  return `objects/${id}/`;
}

/** The site path of the page that compares two versions of an object (which two: its query, `?a=<v>&b=<v>`). */
export function comparePagePath(id: string): string {
  return `objects/${id}/compare/`;
}

/** The base of the JSON API read by the SDK. */
export const API_BASE = 'api/v1';

/** API paths, relative to the site root. */
export const apiPaths = {
  index: () => `${API_BASE}/index.json`,
  /** The catalog's first page; page `n` >= 2 is `objectsPage(n)`. */
  objects: () => `${API_BASE}/objects.json`,
  objectsPage: (n: number) => (n <= 1 ? `${API_BASE}/objects.json` : `${API_BASE}/objects/page/${n}.json`),
  object: (id: string) => `${API_BASE}/objects/${id}.json`,
  version: (id: string, version: string) => `${API_BASE}/objects/${id}/versions/${version}.json`,
  worlds: () => `${API_BASE}/worlds.json`,
};

/** An absolute URL on the registry for a site path. */
export function siteUrl(registryUrl: string, path: string): string {
  return `${trimSlash(registryUrl)}/${encodePath(path)}`;
}

/** Rewrites a URL on the registry's origin to the same path on `origin` (a preview, localhost). */
export function toOrigin(url: string, registryUrl: string, origin: string): string {
  const target = new URL(url);
  const registry = new URL(registryUrl);
  if (target.origin !== registry.origin) return url;
  const here = new URL(origin);
  return `${here.origin}${target.pathname}${target.search}`;
}

/** A link for a page of this site: a URL on the registry becomes a path under `base`, so previews and localhost work. */
export function localHref(url: string, registryUrl: string, base = '/'): string {
  const prefix = `${trimSlash(registryUrl)}/`;
  return url.startsWith(prefix) ? `${base.endsWith('/') ? base : `${base}/`}${url.slice(prefix.length)}` : url;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A path of only what `encodeURIComponent` keeps, `/` and `+`: its own encoding (most of a site's paths are). */
const PLAIN_PATH = /^[A-Za-z0-9\-_.!~*'()/+]*$/;

/** Percent-encodes each segment of a path as a URL would carry it (`+` is kept). */
export function encodePath(path: string): string {
  if (PLAIN_PATH.test(path)) return path;
  return path
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%2B/g, '+'))
    .join('/');
}
