/**
 * DNS-rebinding protection of the HTTP transport: a request is served only when its Host header names the server by a
 * loopback name (or the host it was bound to) with its port, and its Origin, when there is one, is that same place.
 */

/** The loopback names a local client may use in Host. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
/** Bind addresses that name no host of their own. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The Host values and origins a server bound to `host` on `port` accepts. */
export interface AllowedPlaces {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

/** What a server bound to `host`:`port` accepts: the loopback names and `host` itself, each with the port. */
export function allowedPlaces(host: string, port: number): AllowedPlaces {
  const bound = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const names = [...new Set([...LOOPBACK_NAMES, ...(WILDCARDS.has(bound) ? [] : [bound.toLowerCase()])])];
  // A browser leaves the port out of Host and Origin when it is HTTP's default.
  const places = names.flatMap((name) => (port === 80 ? [`${name}:80`, name] : [`${name}:${port}`]));
  return { hosts: new Set(places), origins: new Set(places.map((p) => `http://${p}`)) };
}

/** Why a request with these headers is refused, or null when it may be served. */
export function rebindingProblem(headers: { host?: string | undefined; origin?: string | undefined }, allowed: AllowedPlaces): string | null {
  const host = headers.host?.toLowerCase();
  if (!host) return 'the request has no Host header';
  if (!allowed.hosts.has(host)) return `Host "${headers.host}" is not this server (allowed: ${[...allowed.hosts].join(', ')})`;
  if (headers.origin !== undefined && !allowed.origins.has(headers.origin.toLowerCase())) return `Origin "${headers.origin}" is not this server`;
  return null;
}
