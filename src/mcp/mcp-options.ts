/** The options of `npm run mcp`, parsed from its arguments with errors that name the flag. */
import { parseArgs } from 'node:util';

export const MCP_USAGE = `usage: npm run mcp -- --site <URL or dist folder> [--http [--port N] [--host H]] [--log-key <key or file>]

  --site <URL or folder>   the registry's site: its origin (https://registry.example.org), or a built dist/ folder,
                           served read-only on a free loopback port inside the process
  --http                   Streamable HTTP on http://<host>:<port>/mcp instead of stdio
  --port <N>               the HTTP port (default 0: a free port, printed on stderr)
  --host <H>               the HTTP address (default 127.0.0.1); requests must name the server by a loopback
                           name or this host, with the port (DNS-rebinding protection)
  --log-key <key or file>  the registry's log key (registry/log.pub): checkpoints must then be signed by it`;

/** A command line that cannot run: the message names the flag and what is wrong. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What `npm run mcp` was asked to do. */
export interface McpOptions {
  /** The `--site` argument as given. */
  site: string;
  /** Where to listen, or null for stdio. */
  http: { host: string; port: number } | null;
  /** `--log-key`: a verifier key, or the path of a file that holds one; null when not given. */
  logKey: string | null;
}

/** Parses `args` (the arguments after `--`); `'help'` for `--help`. Throws {@link UsageError}. */
export function parseMcpArgs(args: readonly string[]): McpOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        site: { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'log-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  if (values.site === undefined || values.site.trim() === '') throw new UsageError('--site is required: the URL of a registry site, or a built dist/ folder');
  if (!values.http && (values.port !== undefined || values.host !== undefined)) throw new UsageError(`--${values.port !== undefined ? 'port' : 'host'} is for --http; without --http the server speaks stdio`);
  let http: McpOptions['http'] = null;
  if (values.http) {
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65535) throw new UsageError(`--port must be a port number (0-65535), not "${values.port}"`);
    const host = values.host ?? '127.0.0.1';
    if (host.trim() === '') throw new UsageError('--host must name an address, not ""');
    http = { host, port };
  }
  const logKey = values['log-key'];
  if (logKey !== undefined && logKey.trim() === '') throw new UsageError('--log-key must be a verifier key (<name>+<key id>+<key>) or a file that holds one, not ""');
  return { site: values.site, http, logKey: logKey ?? null };
}
