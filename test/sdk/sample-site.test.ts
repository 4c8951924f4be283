/** The SDK against the built sample site, served over real HTTP on loopback. */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, InvalidResponseError, NotFoundError, type AsoClient, type ObjectVersion } from '@aso-registry/sdk';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from './support/rejection.ts';

let dist: string;
let server: StaticServer;
let client: AsoClient;
/** Every version of the sample registry, read from its folders (not from the API). */
const published = new Map<string, string[]>();

function sri(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

beforeAll(async () => {
  dist = siteDir();
  const objects = join(repoRoot, 'registry', 'objects');
  for (const id of (await readdir(objects)).sort()) {
    published.set(id, (await readdir(join(objects, id, 'versions'))).sort());
  }
  server = await serveStatic(dist);
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  client = createClient({ origin: server.origin });
});

afterEach(() => {
  server.setOverride(undefined);
});

describe('the SDK against the sample site', () => {
  it('lists every object and version of the sample registry', async () => {
    expect(published.size).toBeGreaterThan(0);
    expect((await client.listObjects()).map((o) => o.id).sort()).toEqual([...published.keys()]);
    for (const [id, versions] of published) {
      expect((await client.listVersions(id)).map((v) => v.version).sort(), id).toEqual(versions);
    }
  });

  it('gets every version, with the manifest of aso.object.json and its record hash', async () => {
    for (const [id, versions] of published) {
      for (const version of versions) {
        const bytes = await readFile(join(dist, 'objects', id, 'versions', version, 'aso.object.json'));
        const result = await client.getObject(id, version);
        expect(result.manifest, `${id}@${version}`).toEqual(JSON.parse(bytes.toString('utf8')));
        expect(result.publication.recordHash, `${id}@${version}`).toBe(sri(bytes));
      }
    }
  });

  it('verifies every representation and preview of every version', async () => {
    let checked = 0;
    for (const [id, versions] of published) {
      for (const version of versions) {
        const { manifest } = await client.getObject(id, version);
        for (const rep of [...manifest.representations, ...(manifest.preview ? [manifest.preview] : [])]) {
          const result = await client.checkIntegrity(rep);
          expect(result, `${id}@${version} ${rep.id}`).toMatchObject({
            ok: true,
            byteLength: { expected: rep.byteLength, actual: rep.byteLength },
            hash: { expected: rep.hash, actual: rep.hash },
            complete: true,
          });
          expect(result.url.startsWith(`${server.origin}/objects/${id}/versions/`), result.url).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(published.size);
  });

  it('resolves latest and ranges as semver does over the published versions', async () => {
    for (const [id, versions] of published) {
      const releases = versions.filter((v) => !semver.prerelease(v));
      const latest = semver.rsort([...(releases.length ? releases : versions)])[0]!;
      expect((await client.getObject(id, 'latest')).version, id).toBe(latest);
      const major = semver.major(latest);
      for (const range of [`^${major}.0.0`, `${major}.x`, `<=${latest}`, '*']) {
        const expected = semver.maxSatisfying(versions, range);
        if (expected) expect((await client.getObject(id, range)).version, `${id} ${range}`).toBe(expected);
        else await expect(client.getObject(id, range), `${id} ${range}`).rejects.toBeInstanceOf(NotFoundError);
      }
      await expect(client.getObject(id, `>${semver.rsort([...versions])[0]}`)).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it('throws NotFoundError for a missing object, version or representation', async () => {
    const [id, versions] = [...published][0]!;
    await expect(client.getObject('no-such-object', 'latest')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getObject('no-such-object', '1.0.0')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getObject(id, '999.999.999')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.listVersions('no-such-object')).rejects.toBeInstanceOf(NotFoundError);
    const { manifest } = await client.getObject(id, versions[0]!);
    const rep = manifest.representations[0]!;
    await expect(client.checkIntegrity({ ...rep, url: `${rep.url}.missing` })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throws InvalidResponseError when a host answers HTML for every path under /api', async () => {
    server.setOverride((pathname) =>
      pathname.startsWith('/api/') ? { body: '<!doctype html><html><body>Single-page app</body></html>', type: 'text/html' } : undefined,
    );
    const [id] = [...published][0]!;
    for (const call of [() => client.listObjects(), () => client.getObject(id, 'latest'), () => client.listVersions(id)]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toMatch(/is not JSON \(text\/html, starts with "<!doctype html>/);
    }
  });

  describe('a representation whose bytes changed', () => {
    let target: ObjectVersion['manifest']['representations'][number];
    let path: string;
    let original: Uint8Array;

    beforeAll(async () => {
      // The largest representation, so that the body spans many reads.
      const reps = [];
      const reader = createClient({ origin: server.origin });
      for (const [id, versions] of published) {
        for (const version of versions) reps.push(...(await reader.getObject(id, version)).manifest.representations);
      }
      target = reps.sort((a, b) => b.byteLength - a.byteLength)[0]!;
      path = new URL(target.url).pathname;
      original = new Uint8Array(await readFile(join(dist, ...decodeURIComponent(path).split('/'))));
    });

    it('is tampered: same length, other hash', async () => {
      const tampered = new Uint8Array(original);
      tampered[tampered.length >> 1] = tampered[tampered.length >> 1]! ^ 0x01;
      server.setOverride((p) => (p === decodeURIComponent(path) ? { body: tampered } : undefined));
      expect(await client.checkIntegrity(target)).toMatchObject({
        ok: false,
        byteLength: { expected: target.byteLength, actual: target.byteLength },
        hash: { expected: target.hash, actual: sri(tampered) },
        complete: true,
      });
    });

    it('is truncated: fewer bytes, their hash', async () => {
      const truncated = original.slice(0, original.length - 1);
      server.setOverride((p) => (p === decodeURIComponent(path) ? { body: truncated } : undefined));
      expect(await client.checkIntegrity(target)).toMatchObject({
        ok: false,
        byteLength: { expected: target.byteLength, actual: target.byteLength - 1 },
        hash: { expected: target.hash, actual: sri(truncated) },
        complete: true,
      });
    });

    it('is padded: reading stops past the declared length, with the length and hash of what was read', async () => {
      const padded = new Uint8Array(original.length + 4 * 1024 * 1024);
      padded.set(original);
      server.setOverride((p) => (p === decodeURIComponent(path) ? { body: padded } : undefined));
      const result = await client.checkIntegrity(target);
      expect(result.ok).toBe(false);
      expect(result.complete).toBe(false);
      expect(result.byteLength.expected).toBe(target.byteLength);
      expect(result.byteLength.actual).toBeGreaterThan(target.byteLength);
      expect(result.byteLength.actual).toBeLessThan(padded.length);
      expect(result.hash.actual).toBe(sri(padded.subarray(0, result.byteLength.actual)));
    });
  });
});
