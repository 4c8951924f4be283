/** `startMcp` in this process: what it refuses before it serves anything. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/mcp/mcp-options.ts';
import { startMcp, type McpIo } from '../../src/mcp/run-mcp.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from '../sdk/support/rejection.ts';

let empty: string;
let server: StaticServer;
const io = (): McpIo => ({ cwd: empty, stdin: new PassThrough(), stdout: new PassThrough(), log: () => {} });

beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), 'aso-mcp-'));
  server = await serveStatic(empty);
});
afterAll(async () => {
  await server?.close();
  await rm(empty, { recursive: true, force: true });
});

describe('startMcp', () => {
  it('refuses a folder that holds no built site, naming --site', async () => {
    const error = await rejection(startMcp({ site: '.', http: null, logKey: null }, io()));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`--site .: ${empty} is not a built site (it has no api/v1/index.json); run npm run build, or pass the site's URL`);
  });

  it('refuses a URL that serves no registry, with the SDK\'s message', async () => {
    const error = await rejection(startMcp({ site: server.origin, http: null, logKey: null }, io()));
    expect((error as Error).message).toBe(`--site ${server.origin}: no registry site could be read there: not found: ${server.origin}/api/v1/index.json (HTTP 404)`);
  });

  it('refuses a URL with a path, another scheme, and a log key that is not one', async () => {
    expect(((await rejection(startMcp({ site: 'https://r.example/registry/', http: null, logKey: null }, io()))) as Error).message).toMatch(
      /^--site https:\/\/r\.example\/registry\/: a registry site is read from the root of its origin \(https:\/\/r\.example\/api\/v1\/\)/,
    );
    expect(((await rejection(startMcp({ site: 'ftp://r.example/', http: null, logKey: null }, io()))) as Error).message).toBe('--site ftp://r.example/: only http:, https: and file: URLs name a site');
    const key = await rejection(startMcp({ site: server.origin, http: null, logKey: 'no+such+key' }, io()));
    expect(key).toBeInstanceOf(UsageError);
    expect((key as Error).message).toBe('--log-key: verifier key no: the key ID must be 8 hex digits');
    const file = await rejection(startMcp({ site: server.origin, http: null, logKey: 'missing.pub' }, io()));
    expect((file as Error).message).toBe(`--log-key missing.pub: not a verifier key (<name>+<key id>+<key>), and ${join(empty, 'missing.pub')} cannot be read (ENOENT)`);
  });

  it('serves a folder named by a file: URL over HTTP, and names --http when its port is taken', async () => {
    const lines: string[] = [];
    const running = await startMcp({ site: pathToFileURL(siteDir()).href, http: { host: '127.0.0.1', port: 0 }, logKey: null }, { ...io(), log: (l) => lines.push(l) });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(lines).toEqual([`aso-registry MCP server over ${siteDir()} (served read-only on ${running.origin})`, `Streamable HTTP on ${running.url}`]);
      const port = Number(new URL(running.url!).port);
      const taken = await rejection(startMcp({ site: siteDir(), http: { host: '127.0.0.1', port }, logKey: null }, io()));
      expect((taken as Error).message).toMatch(new RegExp(`^--http on 127\\.0\\.0\\.1 port ${port}: listen EADDRINUSE`));
    } finally {
      await running.close();
    }
    await running.done;
  });
});
