/**
 * `npm run mcp -- --http` spawned as a real process, over a signed copy of the sample site served by URL with one byte of
 * a mesh changed, its log key pinned; read with the official Streamable HTTP client. Also its DNS-rebinding protection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '@aso-registry/sdk';
import { repoRoot } from '../support/build-site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { signedSiteCopy, type SignedSiteCopy } from '../sdk/support/signed-site-copy.ts';

const MESH = 'objects/oak-chair/versions/1.1.0/representations/mesh.glb';

let site: SignedSiteCopy;
let server: StaticServer;
let mcp: ChildProcess;
let output = '';
let endpoint: URL;
let client: Client;

beforeAll(async () => {
  site = await signedSiteCopy();
  const mesh = await site.read(MESH);
  const middle = mesh.length >> 1;
  mesh[middle] = mesh[middle]! ^ 0x01;
  await site.write(MESH, mesh);
  server = await serveStatic(site.dir);
  mcp = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'mcp.ts'), '--site', server.origin, '--http', '--port', '0', '--log-key', site.key.text], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  mcp.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  endpoint = await new Promise<URL>((resolve, reject) => {
    mcp.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
      const found = /Streamable HTTP on (http:\/\/\S+)/.exec(output);
      if (found) resolve(new URL(found[1]!));
    });
    mcp.once('exit', (code) => reject(new Error(`npm run mcp exited ${code} before it listened:\n${output}`)));
  });
  client = new Client({ name: 'aso-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint));
});

afterAll(async () => {
  await client?.close();
  if (mcp && mcp.exitCode === null) {
    const exited = new Promise((resolve) => mcp.once('exit', resolve));
    mcp.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  await site?.remove();
});

async function verify(id: string, version: string): Promise<CallToolResult & { structuredContent: Record<string, any> }> {
  return (await client.callTool({ name: 'verify_object', arguments: { id, version } })) as CallToolResult & { structuredContent: Record<string, any> };
}

/** One raw POST of an initialize request with the given Host and Origin. */
function post(host: string, origin?: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        path: '/mcp',
        method: 'POST',
        headers: { host, ...(origin ? { origin } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('npm run mcp --http over a site URL', () => {
  it('listens on loopback and lists its tools with their schemas', async () => {
    expect(endpoint.hostname).toBe('127.0.0.1');
    expect(endpoint.pathname).toBe('/mcp');
    expect(output).toContain(`aso-registry MCP server over ${server.origin}, log key pinned`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compare_versions', 'get_object', 'get_world', 'list_versions', 'search_objects', 'verify_object']);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('verifies an intact version, with the checkpoint signed by the pinned log key', async () => {
    const result = await verify('brass-lantern', '1.0.1');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.ok).toBe(true);
    expect(result.structuredContent.checks.find((c: { check: string }) => c.check === 'checkpoint-signature')).toMatchObject({
      status: 'pass',
      detail: `signed by the pinned log key ${site.key.name}+${site.key.keyId}`,
    });
  });

  it('reports a mesh with one byte changed as a failure, never as success', async () => {
    const manifest = await site.readJson<Manifest>('objects/oak-chair/versions/1.1.0/aso.object.json');
    const mesh = manifest.representations.find((r) => r.id === 'mesh')!;
    const result = await verify('oak-chair', '1.1.0');
    expect(result.isError).toBe(true);
    const out = result.structuredContent;
    expect(out.ok).toBe(false);
    expect(out.summary).toBe(`oak-chair@1.1.0 FAILED 1 of ${out.checks.length} checks: representation mesh`);
    const failed = out.checks.filter((c: { status: string }) => c.status === 'fail');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ check: 'representation', subject: 'mesh', expected: { byteLength: mesh.byteLength, hash: mesh.hash }, actual: { byteLength: mesh.byteLength } });
    expect(failed[0].actual.hash).not.toBe(mesh.hash);
    expect(out.checks.find((c: { check: string }) => c.check === 'record-hash').status).toBe('pass');
    expect(out.checks.find((c: { check: string }) => c.check === 'log-proof').status).toBe('pass');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ ok: false });
  });

  it('refuses a request whose Host or Origin is not this server on loopback (DNS rebinding)', async () => {
    const port = endpoint.port;
    const rebound = await post(`evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/^Host "evil\.example:\d+" is not this server/) }, id: null });
    expect((await post(`127.0.0.1:${Number(port) + 1}`)).status).toBe(403);
    const crossOrigin = await post(`localhost:${port}`, `http://evil.example:${port}`);
    expect(crossOrigin.status).toBe(403);
    expect(JSON.parse(crossOrigin.body).error.message).toBe(`Origin "http://evil.example:${port}" is not this server`);
    expect((await post(`localhost:${port}`, `http://localhost:${port}`)).status).toBe(200);
    expect((await post(`[::1]:${port}`)).status).toBe(200);
  });
});
