/** `npm run mcp` over stdio, spawned as a real process through tsx, against the built sample site given as a folder; read with the official MCP client. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDocument } from '@aso-registry/core/documents/api-types';
import type { ApiCatalog, ApiObject, ApiVersion, Manifest } from '@aso-registry/sdk';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';

let dist: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';

const json = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(dist, ...path.split('/')), 'utf8')) as T;
const sri = (bytes: Uint8Array): string => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: Record<string, any> }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Record<string, any> };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

beforeAll(async () => {
  dist = siteDir();
  transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'scripts', 'mcp.ts'), '--site', dist],
    cwd: repoRoot,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'aso-test', version: '1.0.0' });
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`the server did not start: ${(error as Error).message}\n${stderr}`);
  });
});

afterAll(async () => {
  await client?.close();
});

describe('npm run mcp on stdio, over a dist folder', () => {
  it('says what it serves, and lists its tools, each with input and output schemas, and its instructions', async () => {
    expect(stderr).toContain(`aso-registry MCP server over ${dist} (served read-only on http://127.0.0.1:`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compare_versions', 'get_object', 'get_world', 'list_versions', 'search_objects', 'verify_object']);
    // What the site tells agents about the server is what the server offers.
    const agent = await json<AgentDocument>('objects/oak-chair/versions/1.1.0/agent.json');
    expect([...agent.mcp.tools].sort()).toEqual(tools.map((t) => t.name).sort());
    expect(agent.mcp.command).toMatch(/^npm run --silent mcp -- --site https?:\/\/\S+$/);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}).length, tool.name).toBeGreaterThan(1);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName.search_objects!.inputSchema.properties!).sort()).toEqual(['license', 'limit', 'maxTriangles', 'query', 'tags', 'type']);
    expect(byName.search_objects!.inputSchema.required).toEqual(['query']);
    expect(byName.verify_object!.inputSchema.required).toEqual(['id', 'version']);
    expect(byName.get_object!.inputSchema.required).toEqual(['id']);
    expect(client.getInstructions()).toMatch(/verify_object/);
  });

  it('search_objects finds an object by a word, with its latest version, licence, triangles, page and thumbnail', async () => {
    const result = await call('search_objects', { query: 'Chair' });
    expect(result.isError).toBeFalsy();
    const object = await json<ApiObject>('api/v1/objects/oak-chair.json');
    const entry = (await json<ApiCatalog>('api/v1/objects.json')).objects.find((o) => o.id === 'oak-chair')!;
    const latest = await json<ApiVersion>(`api/v1/objects/oak-chair/versions/${object.latest}.json`);
    expect(result.structuredContent.results.map((r: { id: string }) => r.id)).toEqual(['oak-chair']);
    expect(result.structuredContent.results[0]).toEqual({
      id: 'oak-chair',
      latest: object.latest,
      name: latest.manifest.name,
      description: latest.manifest.description,
      type: 'mesh',
      license: latest.manifest.license,
      triangles: latest.representations.find((r) => r.gltf)!.gltf!.triangles,
      tags: latest.manifest.tags,
      versions: object.versions.length,
      pageUrl: latest.pageUrl,
      thumbnailUrl: latest.manifest.preview!.url,
      apiUrl: entry.apiUrl,
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
  });

  it('search_objects filters by tags, type, licence and triangles, as the latest versions say, and honours limit', async () => {
    const catalog = await json<ApiCatalog>('api/v1/objects.json');
    const latest = await Promise.all(catalog.objects.map((o) => json<ApiVersion>(`api/v1/objects/${o.id}/versions/${o.latest}.json`)));
    const ids = async (args: Record<string, unknown>): Promise<string[]> => (await call('search_objects', { query: '', ...args })).structuredContent.results.map((r: { id: string }) => r.id).sort();
    const cc0 = latest.filter((v) => v.manifest.license?.startsWith('CC0-')).map((v) => v.id).sort();
    expect(cc0.length).toBeGreaterThan(1);
    expect(await ids({ license: 'CC0' })).toEqual(cc0);
    expect(await ids({ license: 'cc0-1.0' })).toEqual(cc0);
    const small = latest.filter((v) => v.manifest.license?.startsWith('CC0-') && (v.representations.find((r) => r.gltf)?.gltf?.triangles ?? Infinity) <= 10_000).map((v) => v.id).sort();
    expect(small.length).toBeGreaterThan(0);
    expect(small.length).toBeLessThan(cc0.length);
    expect(await ids({ license: 'CC0', maxTriangles: 10_000 })).toEqual(small);
    expect(await ids({ type: 'point-cloud' })).toEqual(latest.filter((v) => v.manifest.representations[0]!.type === 'point-cloud').map((v) => v.id).sort());
    expect(await ids({ tags: ['chair'] })).toEqual(['oak-chair']);
    expect(await ids({ query: 'no such words anywhere' })).toEqual([]);
    const one = await call('search_objects', { query: '', limit: 1 });
    expect(one.structuredContent).toMatchObject({ results: [{ id: catalog.objects[0]!.id }], more: true });
    expect((await call('search_objects', { query: '' })).structuredContent.more).toBe(false);
  });

  it('get_object returns the verified version document: the manifest of aso.object.json, its hashes, facts, provenance and log status', async () => {
    const object = await json<ApiObject>('api/v1/objects/oak-chair.json');
    const bytes = await readFile(join(dist, 'objects', 'oak-chair', 'versions', object.latest, 'aso.object.json'));
    const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    const doc = await json<ApiVersion>(`api/v1/objects/oak-chair/versions/${object.latest}.json`);
    const result = await call('get_object', { id: 'oak-chair' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent;
    expect(out).toMatchObject({ id: 'oak-chair', version: object.latest, latest: object.latest, recordHash: sri(bytes), manifest, provenance: manifest.provenance });
    expect(out.representations.map((r: { id: string; hash: string }) => [r.id, r.hash])).toEqual([...manifest.representations, manifest.preview!].map((r) => [r.id, r.hash]));
    expect(out.representations[0].compatibility).toBe(doc.representations[0]!.compatibility);
    expect(out.facts).toMatchObject({ license: manifest.license, type: 'mesh', triangles: doc.representations[0]!.gltf!.triangles, signed: false });
    expect(out.log).toMatchObject({ proven: true, leafIndex: doc.log!.leafIndex, checkpoint: { signature: 'unsigned', signedBy: null }, publisher: null });
    expect(out.resource).toBe(`aso://objects/oak-chair/versions/${object.latest}/manifest`);
    expect((await call('get_object', { id: 'oak-chair', version: '1.0.0' })).structuredContent.version).toBe('1.0.0');
    expect((await call('get_object', { id: 'oak-chair', version: '^1.0.0' })).structuredContent.version).toBe(object.latest);
  });

  it('get_object reports a missing object or version as a tool error with the SDK\'s message', async () => {
    const missing = await call('get_object', { id: 'no-such-object' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^no object "no-such-object" in the registry at http:\/\/127\.0\.0\.1:\d+ \(.*api\/v1\/objects\/no-such-object\.json: not found\)$/);
    const version = await call('get_object', { id: 'oak-chair', version: '9.9.9' });
    expect(version.isError).toBe(true);
    expect(text(version)).toMatch(/^object "oak-chair" has no published version 9\.9\.9 /);
    const bad = await call('get_object', { id: 'Not An Id' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^id must be an object id/);
  });

  it('list_versions lists every version newest first, with latest', async () => {
    const object = await json<ApiObject>('api/v1/objects/oak-chair.json');
    const result = await call('list_versions', { id: 'oak-chair' });
    expect(result.structuredContent.latest).toBe(object.latest);
    expect(result.structuredContent.versions.map((v: { version: string; recordHash: string }) => [v.version, v.recordHash])).toEqual(object.versions.map((v) => [v.version, v.recordHash]));
    expect((await call('list_versions', { id: 'no-such-object' })).isError).toBe(true);
  });

  it('verify_object hashes every file of a version and proves it in the log, each check with its result', async () => {
    const manifest = await json<Manifest>('objects/oak-chair/versions/1.1.0/aso.object.json');
    const result = await call('verify_object', { id: 'oak-chair', version: '1.1.0' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent;
    expect(out).toMatchObject({ id: 'oak-chair', version: '1.1.0', ok: true, retracted: false });
    const checks = out.checks as Array<{ check: string; subject: string; status: string; actual?: { hash: string } }>;
    expect(checks.filter((c) => c.check === 'representation').map((c) => [c.subject, c.status, c.actual?.hash])).toEqual(
      [...manifest.representations, manifest.preview!].map((r) => [r.id, 'pass', r.hash]),
    );
    expect(checks.find((c) => c.check === 'record-hash')?.status).toBe('pass');
    expect(checks.find((c) => c.check === 'log-proof')?.status).toBe('pass');
    expect(checks.find((c) => c.check === 'checkpoint-signature')).toMatchObject({ status: 'skipped', detail: 'the checkpoint is unsigned' });
    expect(checks.find((c) => c.check === 'publisher-signature')).toMatchObject({ status: 'skipped', detail: 'the version is published unsigned' });
    const missing = await call('verify_object', { id: 'oak-chair', version: '7.0.0' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^object "oak-chair" has no published version 7\.0\.0 /);
  });

  it('compare_versions lists the facts that differ between two versions', async () => {
    const [a, b] = await Promise.all([json<ApiVersion>('api/v1/objects/oak-chair/versions/1.0.0.json'), json<ApiVersion>('api/v1/objects/oak-chair/versions/1.1.0.json')]);
    const result = await call('compare_versions', { id: 'oak-chair', from: '1.0.0', to: '1.1.0' });
    const out = result.structuredContent;
    expect(out.identical).toBe(false);
    const fields = Object.fromEntries((out.differences as Array<{ field: string; from: unknown; to: unknown }>).map((d) => [d.field, d]));
    expect(fields.description).toMatchObject({ from: a.manifest.description, to: b.manifest.description });
    expect(fields.triangles).toMatchObject({ from: a.representations[0]!.gltf!.triangles, to: b.representations[0]!.gltf!.triangles });
    expect(fields.representations).toBeDefined();
    expect(fields.license).toBeUndefined();
    expect(fields.name).toBeUndefined();
    const same = await call('compare_versions', { id: 'oak-chair', from: '1.1.0', to: 'latest' });
    expect(same.structuredContent).toMatchObject({ identical: true, differences: [] });
  });

  it('get_world returns a world with every version it references, and a missing world is a tool error', async () => {
    const world = JSON.parse(await readFile(join(repoRoot, 'registry', 'worlds', 'reading-room.json'), 'utf8')) as { name: string; objects: Array<{ id: string; version: string }> };
    const result = await call('get_world', { id: 'reading-room' });
    expect(result.structuredContent).toMatchObject({ id: 'reading-room', name: world.name });
    expect(result.structuredContent.objects.map((o: { id: string; version: string }) => ({ id: o.id, version: o.version }))).toEqual(world.objects);
    const missing = await call('get_world', { id: 'atlantis' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^no world "atlantis" in the registry at .* \(worlds: garden-terrace, reading-room\)$/);
  });

  it('lists every manifest as a resource and llms.txt, and reads their exact bytes', async () => {
    const catalog = await json<ApiCatalog>('api/v1/objects.json');
    const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
    const expected = catalog.objects.flatMap((o) => o.versions.map((v) => `aso://objects/${o.id}/versions/${v}/manifest`));
    expect(uris).toEqual([...expected, 'aso://llms.txt'].sort());
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['aso://objects/{id}/versions/{version}/manifest']);
    const manifest = await client.readResource({ uri: 'aso://objects/brass-lantern/versions/1.0.0/manifest' });
    expect(manifest.contents[0]).toMatchObject({ mimeType: 'application/json', text: await readFile(join(dist, 'objects', 'brass-lantern', 'versions', '1.0.0', 'aso.object.json'), 'utf8') });
    const llms = await client.readResource({ uri: 'aso://llms.txt' });
    expect(llms.contents[0]).toMatchObject({ text: await readFile(join(dist, 'llms.txt'), 'utf8') });
    await expect(client.readResource({ uri: 'aso://objects/brass-lantern/versions/9.0.0/manifest' })).rejects.toThrow(/object "brass-lantern" has no published version 9\.0\.0/);
  });
});
