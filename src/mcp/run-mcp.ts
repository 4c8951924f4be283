/** `npm run mcp`: opens the site, checks that it is a registry, and serves the MCP server on stdio or Streamable HTTP. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createClient, type AsoClient } from '@aso-registry/sdk';
import { startMcpHttpServer } from './http-server.ts';
import { UsageError, type McpOptions } from './mcp-options.ts';
import { openSite } from './open-site.ts';
import { registryContext } from './registry-context.ts';
import { createRegistryServer } from './registry-server.ts';

/** Where the server talks and logs. */
export interface McpIo {
  cwd: string;
  stdin: Readable;
  stdout: Writable;
  /** One line of news for a person (stderr: stdout belongs to the protocol on stdio). */
  log(line: string): void;
}

/** A running server. */
export interface RunningMcp {
  /** The origin the SDK reads. */
  origin: string;
  /** The HTTP endpoint, or null on stdio. */
  url: string | null;
  /** Settles once the server stopped: closed, or its stdin ended. */
  done: Promise<void>;
  close(): Promise<void>;
}

/** `--log-key` as key text: the argument itself when it is a key, else the file it names. */
async function logKeyText(value: string, cwd: string): Promise<string> {
  if (value.includes('+')) return value;
  const path = resolve(cwd, value);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--log-key ${value}: not a verifier key (<name>+<key id>+<key>), and ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** Starts the server for `options`; throws {@link UsageError} for a bad argument, an Error for a site that cannot be read. */
export async function startMcp(options: McpOptions, io: McpIo): Promise<RunningMcp> {
  const logKey = options.logKey === null ? null : await logKeyText(options.logKey, io.cwd);
  const site = await openSite(options.site, io.cwd);
  let client: AsoClient;
  try {
    try {
      client = createClient({ origin: site.origin, ...(logKey !== null ? { logKey } : {}) });
    } catch (error) {
      throw new UsageError(`--log-key: ${(error as Error).message.replace(/^createClient: logKey: /, '')}`);
    }
    try {
      await client.getIndex();
    } catch (error) {
      throw new Error(`--site ${options.site}: no registry site could be read there: ${(error as Error).message}`, { cause: error });
    }
  } catch (error) {
    await site.close();
    throw error;
  }
  const ctx = registryContext(client, logKey !== null);
  io.log(`aso-registry MCP server over ${site.folder ? `${site.folder} (served read-only on ${site.origin})` : site.origin}${logKey !== null ? ', log key pinned' : ''}`);

  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  let closing: Promise<void> | null = null;

  if (options.http) {
    const { host, port } = options.http;
    const http = await startMcpHttpServer({ host, port, createMcp: () => createRegistryServer(ctx), onError: (error) => io.log(`error: ${error.message}`) }).catch(async (error: unknown) => {
      await site.close();
      throw new Error(`--http on ${host} port ${port}: ${(error as Error).message}`, { cause: error });
    });
    io.log(`Streamable HTTP on ${http.url}`);
    const close = (): Promise<void> => (closing ??= Promise.all([http.close(), site.close()]).then(finish));
    return { origin: site.origin, url: http.url, done, close };
  }

  const server = createRegistryServer(ctx);
  await server.connect(new StdioServerTransport(io.stdin, io.stdout));
  io.log('speaking MCP on stdio');
  const close = (): Promise<void> => (closing ??= Promise.all([server.close(), site.close()]).then(finish));
  // The client closes its end of stdin to stop the server.
  io.stdin.once('end', () => void close());
  return { origin: site.origin, url: null, done, close };
}
