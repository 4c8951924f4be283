/** The SDK against a small site written with the project's document builders, served over real HTTP on loopback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { representationPath } from '@aso-registry/core/format/paths';
import { sriOf } from '@aso-registry/core/format/sri';
import type { ApiVersion } from '@aso-registry/core/documents/api-types';
import {
  AsoSdkError,
  createClient,
  IntegrityError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  type AsoClient,
} from '@aso-registry/sdk';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { defaultVersions, REGISTRY_URL, writeFixtureSite, type FixtureSite } from './support/fixture-site.ts';
import { rejection } from './support/rejection.ts';

let site: FixtureSite;
let server: StaticServer;
let client: AsoClient;
const requests: string[] = [];

beforeAll(async () => {
  site = await writeFixtureSite();
  server = await serveStatic(site.dir);
});

afterAll(async () => {
  await server?.close();
  await site?.remove();
});

beforeEach(() => {
  requests.length = 0;
  server.setOverride((pathname) => void requests.push(pathname));
  client = createClient({ origin: server.origin });
});

/** Serves `body` in place of the file at `pathname`, and everything else as usual. */
function replace(pathname: string, body: Uint8Array | string, status = 200, type?: string): void {
  server.setOverride((p) => (p === pathname ? { status, body, type } : undefined));
}

async function versionDoc(id: string, version: string): Promise<ApiVersion> {
  const response = await fetch(`${server.origin}/api/v1/objects/${id}/versions/${version}.json`);
  return (await response.json()) as ApiVersion;
}

describe('getObject', () => {
  it('returns every version with the published manifest and publication, after checking the record hash', async () => {
    for (const [key, published] of site.manifests) {
      const [id, version] = key.split('@') as [string, string];
      const result = await client.getObject(id, version);
      expect(result.manifest).toEqual(JSON.parse(new TextDecoder().decode(published.bytes)));
      expect(result.publication.recordHash).toBe(published.recordHash);
      expect(result.id).toBe(id);
      expect(result.version).toBe(version);
      expect(result.representations.map((r) => r.id)).toEqual([
        ...published.manifest.representations.map((r) => r.id),
        ...(published.manifest.preview ? [published.manifest.preview.id] : []),
      ]);
    }
  });

  it('reads the manifest bytes at manifestUrl, rewritten from the registry origin to the client origin', async () => {
    await client.getObject('chair', '1.0.0');
    expect(requests).toContain('/objects/chair/versions/1.0.0/aso.object.json');
    expect(requests).toContain('/api/v1/objects/chair/versions/1.0.0.json');
  });

  it('resolves latest to the highest non-prerelease version', async () => {
    expect((await client.getObject('chair', 'latest')).version).toBe('1.2.0+build.7');
    expect((await client.getObject('chair')).version).toBe('1.2.0+build.7');
    expect((await client.getObject('lamp', 'latest')).version).toBe('0.1.0');
  });

  it('resolves SemVer ranges against the published versions', async () => {
    expect((await client.getObject('chair', '^1.0.0')).version).toBe('1.2.0+build.7');
    expect((await client.getObject('chair', '~1.1')).version).toBe('1.1.0');
    expect((await client.getObject('chair', '1.0.x')).version).toBe('1.0.0');
    expect((await client.getObject('chair', '<1.1.0')).version).toBe('1.0.0');
    expect((await client.getObject('chair', '>=2.0.0-rc.0')).version).toBe('2.0.0-rc.1');
    expect((await client.getObject('chair', '2.0.0-rc.1')).version).toBe('2.0.0-rc.1');
  });

  it('throws NotFoundError for an unknown object, an unknown version and a range nothing satisfies', async () => {
    const unknownObject = await rejection(client.getObject('no-such-object', 'latest'));
    expect(unknownObject).toBeInstanceOf(NotFoundError);
    expect((unknownObject as NotFoundError).code).toBe('not_found');
    expect((unknownObject as Error).message).toContain('no object "no-such-object"');

    const unknownVersion = await rejection(client.getObject('chair', '9.9.9'));
    expect(unknownVersion).toBeInstanceOf(NotFoundError);
    expect((unknownVersion as NotFoundError).url).toBe(`${server.origin}/api/v1/objects/chair/versions/9.9.9.json`);
    expect((unknownVersion as Error).message).toContain('no published version 9.9.9');

    const noMatch = await rejection(client.getObject('chair', '^3.0.0'));
    expect(noMatch).toBeInstanceOf(NotFoundError);
    expect((noMatch as Error).message).toBe(
      'object "chair" has no version matching "^3.0.0" (published: 2.0.0-rc.1, 1.2.0+build.7, 1.1.0, 1.0.0)',
    );
    await expect(client.listVersions('no-such-object')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects bad arguments with a TypeError that names them, before any request', async () => {
    await expect(client.getObject('Chair!', 'latest')).rejects.toThrow(/id must be an object id .* got "Chair!"/);
    await expect(client.getObject('chair', 'newest')).rejects.toThrow('version must be an exact version, "latest" or a SemVer range, got "newest"');
    await expect(client.getObject('chair', '')).rejects.toBeInstanceOf(TypeError);
    expect(requests).toEqual([]);
    expect(() => createClient({ origin: 'localhost:4321' })).toThrow('createClient: origin must be an absolute http(s) URL, got "localhost:4321"');
    expect(() => createClient({ origin: 'http://localhost:4321/site' })).toThrow(/origin must be scheme:\/\/host\[:port\] with no path/);
    expect(createClient({ origin: 'http://localhost:4321/' }).baseUrl).toBe('http://localhost:4321/api/v1');
  });

  it('throws InvalidResponseError when the server answers HTML instead of JSON', async () => {
    replace('/api/v1/objects/chair.json', '<!doctype html><title>Home</title><p>Welcome</p>', 200, 'text/html');
    const error = await rejection(client.getObject('chair', 'latest'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).code).toBe('invalid_response');
    expect((error as Error).message).toBe(
      `invalid response from ${server.origin}/api/v1/objects/chair.json: (document) is not JSON (text/html, starts with "<!doctype html><title>Home</title><p>Wel")`,
    );
  });

  it('names the field of a document that is not the documented shape', async () => {
    const doc = await versionDoc('chair', '1.0.0');
    const path = '/api/v1/objects/chair/versions/1.0.0.json';

    replace(path, JSON.stringify({ ...doc, representations: [{ ...doc.representations[0], byteLength: -1 }] }));
    let error = await rejection(client.getObject('chair', '1.0.0'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).pointer).toBe('/representations/0/byteLength');
    expect((error as Error).message).toContain('must be a non-negative integer, got -1');

    const inventory = { triangles: 12, vertices: 24, drawCalls: 1, materials: 1, textures: 0, animations: 0, skins: 0, extensionsUsed: [], extensionsRequired: 'KHR_x' };
    replace(path, JSON.stringify({ ...doc, representations: [{ ...doc.representations[0], gltf: inventory }] }));
    error = await rejection(client.getObject('chair', '1.0.0'));
    expect((error as InvalidResponseError).pointer).toBe('/representations/0/gltf/extensionsRequired');
    replace(path, JSON.stringify({ ...doc, representations: [{ ...doc.representations[0], gltf: { ...inventory, extensionsRequired: [], triangles: 1.5 } }] }));
    error = await rejection(client.getObject('chair', '1.0.0'));
    expect((error as InvalidResponseError).pointer).toBe('/representations/0/gltf/triangles');

    const { name: _name, ...nameless } = doc.manifest;
    replace(path, JSON.stringify({ ...doc, manifest: nameless }));
    error = await rejection(client.getObject('chair', '1.0.0'));
    expect((error as InvalidResponseError).pointer).toBe('/manifest/name');

    replace(path, JSON.stringify({ ...doc, version: '1.1.0' }));
    error = await rejection(client.getObject('chair', '1.0.0'));
    expect((error as InvalidResponseError).pointer).toBe('/version');
    expect((error as Error).message).toContain('must be "1.0.0", got "1.1.0"');

    replace(path, JSON.stringify([doc]));
    error = await rejection(client.getObject('chair', '1.0.0'));
    expect((error as Error).message).toContain('(document) must be an object, got an array');

    const page = { schema: 'aso/api/v1/objects', page: 1, pageCount: 1, total: 1, prev: null, next: null };
    replace('/api/v1/objects.json', JSON.stringify({ ...page, objects: [{ id: 'x' }] }));
    error = await rejection(client.listObjects());
    expect((error as InvalidResponseError).pointer).toBe('/objects/0/name');

    replace('/api/v1/objects.json', JSON.stringify({ ...page, page: undefined, objects: [] }));
    error = await rejection(client.listObjects());
    expect((error as InvalidResponseError).pointer).toBe('/page');

    replace('/api/v1/objects.json', JSON.stringify({ ...page, pageCount: 2, objects: [] }));
    error = await rejection(client.listObjects());
    expect((error as Error).message).toContain('/next is null before the last page (1 of 2)');
  });

  it('lists the whole catalog by following its pages', async () => {
    const paged = await writeFixtureSite(undefined, REGISTRY_URL, 1);
    const pagedServer = await serveStatic(paged.dir);
    const seen: string[] = [];
    try {
      const pagedClient = createClient({ origin: pagedServer.origin, fetch: (input, init) => (seen.push(String(input)), fetch(input, init)) });
      const all = await pagedClient.listObjects();
      const ids = [...new Set(defaultVersions().map((v) => v.id))].sort();
      expect(ids.length).toBeGreaterThan(1);
      expect(all.map((o) => o.id)).toEqual(ids);
      const pages = seen.filter((u) => u.includes('/api/v1/objects'));
      expect(pages).toEqual([`${pagedServer.origin}/api/v1/objects.json`, ...ids.slice(1).map((_, i) => `${pagedServer.origin}/api/v1/objects/page/${i + 2}.json`)]);
    } finally {
      await pagedServer.close();
      await paged.remove();
    }
  });

  it('refuses a manifest whose bytes do not hash to the record hash', async () => {
    const published = site.manifests.get('chair@1.1.0')!;
    const tampered = new TextDecoder().decode(published.bytes).replace('"The chair"', '"The chain"');
    replace('/objects/chair/versions/1.1.0/aso.object.json', tampered);
    const error = await rejection(client.getObject('chair', '1.1.0'));
    expect(error).toBeInstanceOf(IntegrityError);
    const integrity = error as IntegrityError;
    expect(integrity.code).toBe('integrity');
    expect(integrity.url).toBe(`${server.origin}/objects/chair/versions/1.1.0/aso.object.json`);
    expect(integrity.expected).toEqual({ hash: published.recordHash });
    expect(integrity.actual).toEqual({ hash: await sriOf(new TextEncoder().encode(tampered)), byteLength: published.bytes.byteLength });
  });

  it('refuses an API document whose manifest differs from the verified manifest bytes', async () => {
    const doc = await versionDoc('chair', '1.1.0');
    replace('/api/v1/objects/chair/versions/1.1.0.json', JSON.stringify({ ...doc, manifest: { ...doc.manifest, description: 'changed' } }));
    const error = await rejection(client.getObject('chair', '1.1.0'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).pointer).toBe('/manifest');
  });

  it('refuses a version whose record hash disagrees with the version list', async () => {
    const response = await fetch(`${server.origin}/api/v1/objects/chair.json`);
    const object = (await response.json()) as { versions: Array<{ version: string; recordHash: string }> };
    const other = object.versions.find((v) => v.version === '1.0.0')!.recordHash;
    for (const v of object.versions) if (v.version === '1.1.0') v.recordHash = other;
    replace('/api/v1/objects/chair.json', JSON.stringify(object));
    const error = await rejection(client.getObject('chair', '~1.1.0'));
    expect((error as InvalidResponseError).pointer).toBe('/publication/recordHash');
  });

  it('reports HTTP errors with their status and failed connections with a null status', async () => {
    replace('/api/v1/objects.json', 'busy', 503, 'text/plain');
    const error = await rejection(client.listObjects());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).status).toBe(503);
    expect((error as Error).message).toMatch(/HTTP 503/);

    const closed = await serveStatic(site.dir);
    const origin = closed.origin;
    await closed.close();
    const offline = await rejection(createClient({ origin }).listObjects());
    expect(offline).toBeInstanceOf(NetworkError);
    expect(offline).toBeInstanceOf(AsoSdkError);
    expect((offline as NetworkError).status).toBeNull();
    expect((offline as NetworkError).code).toBe('network');
  });

  it('passes an abort signal through', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client.getObject('chair', '1.0.0', { signal: controller.signal }));
    expect((error as Error).name).toBe('AbortError');
  });

  it('uses the fetch it is given, even detached from the client', async () => {
    const seen: string[] = [];
    const { listObjects, listVersions } = createClient({
      origin: server.origin,
      fetch: (input, init) => {
        seen.push(input);
        return fetch(input, init);
      },
    });
    expect((await listObjects()).map((o) => o.id)).toEqual(['chair', 'lamp']);
    expect((await listVersions('chair')).map((v) => v.version)).toEqual(['2.0.0-rc.1', '1.2.0+build.7', '1.1.0', '1.0.0']);
    expect(seen).toEqual([`${server.origin}/api/v1/objects.json`, `${server.origin}/api/v1/objects/chair.json`]);
  });
});

describe('checkIntegrity', () => {
  it('verifies every representation and preview of every version on the client origin', async () => {
    for (const [key] of site.manifests) {
      const [id, version] = key.split('@') as [string, string];
      const { representations } = await client.getObject(id, version);
      for (const rep of representations) {
        const result = await client.checkIntegrity(rep);
        expect(result).toEqual({
          ok: true,
          byteLength: { expected: rep.byteLength, actual: rep.byteLength },
          hash: { expected: rep.hash, actual: rep.hash },
          url: rep.url.replace(REGISTRY_URL, server.origin),
          complete: true,
        });
      }
    }
  });

  it('reads the registry URL once from index.json, or not at all when it is given', async () => {
    const { manifest } = await client.getObject('chair', '1.0.0');
    await client.checkIntegrity(manifest.representations[0]!);
    await client.checkIntegrity(manifest.representations[1]!);
    expect(requests.filter((p) => p === '/api/v1/index.json')).toHaveLength(1);

    requests.length = 0;
    const given = createClient({ origin: server.origin, registryUrl: `${REGISTRY_URL}/` });
    expect((await given.checkIntegrity(manifest.representations[0]!)).ok).toBe(true);
    expect(requests).toEqual([`/${representationPath('chair', '1.0.0', 'mesh', 'gltf')}`]);
    expect(await given.resolveUrl('https://cdn.example.net/a.bin')).toBe('https://cdn.example.net/a.bin');
    expect(await given.resolveUrl('/objects/x')).toBe(`${server.origin}/objects/x`);
  });

  it('reports tampered bytes of the declared length with the actual hash', async () => {
    const { manifest } = await client.getObject('chair', '1.1.0');
    const rep = manifest.representations.find((r) => r.id === 'cloud')!;
    const path = `/${representationPath('chair', '1.1.0', 'cloud', 'ply')}`;
    const tampered = new Uint8Array(site.files.get(path.slice(1))!);
    tampered[100] = tampered[100]! ^ 0xff;
    replace(path, tampered);
    const result = await client.checkIntegrity(rep);
    expect(result).toMatchObject({
      ok: false,
      byteLength: { expected: rep.byteLength, actual: rep.byteLength },
      hash: { expected: rep.hash, actual: await sriOf(tampered) },
      complete: true,
    });
    expect(result.hash.actual).not.toBe(rep.hash);
  });

  it('reports truncated bytes with the actual length and hash', async () => {
    const { manifest } = await client.getObject('lamp', '0.1.0');
    const rep = manifest.representations[0]!;
    const path = `/${representationPath('lamp', '0.1.0', rep.id, rep.format)}`;
    const truncated = site.files.get(path.slice(1))!.slice(0, rep.byteLength - 1000);
    replace(path, truncated);
    expect(await client.checkIntegrity(rep)).toEqual({
      ok: false,
      byteLength: { expected: rep.byteLength, actual: rep.byteLength - 1000 },
      hash: { expected: rep.hash, actual: await sriOf(truncated) },
      url: `${server.origin}${path}`,
      complete: true,
    });
  });

  it('reports padded bytes, and the actual values cover the bytes read before it stopped', async () => {
    const { manifest } = await client.getObject('chair', '1.0.0');
    const rep = manifest.representations.find((r) => r.id === 'mesh')!;
    const path = `/${representationPath('chair', '1.0.0', 'mesh', 'gltf')}`;
    const original = site.files.get(path.slice(1))!;
    const padded = new Uint8Array([...original, ...new TextEncoder().encode('    ')]);
    replace(path, padded);
    const result = await client.checkIntegrity(rep);
    expect(result.ok).toBe(false);
    expect(result.complete).toBe(false);
    expect(result.byteLength.expected).toBe(rep.byteLength);
    expect(result.byteLength.actual).toBeGreaterThan(rep.byteLength);
    expect(result.byteLength.actual).toBeLessThanOrEqual(padded.byteLength);
    expect(result.hash.actual).toBe(await sriOf(padded.slice(0, result.byteLength.actual)));
  });

  it('stops reading a body that never ends once more bytes than declared have arrived', async () => {
    let closed: () => void = () => {};
    const disconnected = new Promise<void>((resolve) => (closed = resolve));
    const endless: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = new Uint8Array(16 * 1024).fill(0x2a);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', closed);
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
    try {
      const declared = { url: `${origin}/forever.bin`, byteLength: 100_000, hash: await sriOf(new Uint8Array(100_000)) };
      const result = await createClient({ origin }).checkIntegrity(declared);
      expect(result.ok).toBe(false);
      expect(result.complete).toBe(false);
      expect(result.byteLength.actual).toBeGreaterThan(100_000);
      await disconnected;
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });

  it('throws NotFoundError for a missing representation and a TypeError for a malformed one', async () => {
    const { manifest } = await client.getObject('chair', '1.0.0');
    const rep = manifest.representations[0]!;
    const missing = await rejection(client.checkIntegrity({ ...rep, url: rep.url.replace('mesh.gltf', 'gone.gltf') }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).url).toBe(`${server.origin}/objects/chair/versions/1.0.0/representations/gone.gltf`);
    await expect(client.checkIntegrity({ ...rep, hash: 'sha256-abc' })).rejects.toThrow('checkIntegrity: representation.hash must be sha256-<base64 of 32 bytes>, got "sha256-abc"');
    await expect(client.checkIntegrity({ ...rep, byteLength: 1.5 })).rejects.toThrow('representation.byteLength must be a non-negative integer, got 1.5');
  });
});
