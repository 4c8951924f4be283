/**
 * Manifests that `npm run check` used to accept and the build then crashed on (or read differently): each is now
 * refused by the check, naming the file, the place and what to fix, and the build runs the same check.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/registry/strict-json.ts';
import { MAX_VERSION_LENGTH } from '@aso-registry/core/format/version';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { MAX_JSON_BYTES, readRegistryJson } from '../../src/registry/read-registry-json.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { createFixture, REGISTRY_URL, sri, type Fixture } from './fixture.ts';

let fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
  fixtures = [];
});

/** A registry with chair@<version> whose manifest text is `rewrite(valid text)`, its record hash matching those bytes. */
async function withManifest(rewrite: (text: string) => string | Uint8Array, version = '1.0.0'): Promise<string[]> {
  const fx = await createFixture();
  fixtures.push(fx);
  await fx.addVersion({ id: 'chair', version });
  const dir = `objects/chair/versions/${version}`;
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(fx.path(`${dir}/aso.object.json`), 'utf8');
  const out = rewrite(text);
  const bytes = typeof out === 'string' ? new TextEncoder().encode(out) : out;
  await fx.write(`${dir}/aso.object.json`, bytes);
  await fx.writeJson(`${dir}/publication.json`, { publicationId: randomUUID(), publishedAt: '2025-01-02T00:00:00Z', publisher: 'test', recordHash: sri(bytes) });
  const { problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, validateGltf: false });
  return problems.map(formatProblem);
}

const MANIFEST = 'registry/objects/chair/versions/1.0.0/aso.object.json';

describe('the check refuses what the build cannot read the same way', () => {
  it('a manifest that starts with a UTF-8 byte order mark', async () => {
    const bom = (text: string): Uint8Array => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(await withManifest(bom)).toEqual([
      `${MANIFEST}: file: starts with a UTF-8 byte order mark (bytes EF BB BF); save the file as UTF-8 without a byte order mark`,
    ]);
  });

  it('a provenance nested 100,000 levels deep', async () => {
    const problems = await withManifest((t) => t.replace('"provenance": {', `"provenance": { "deep": ${'['.repeat(100_000)}${']'.repeat(100_000)},`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${MANIFEST}: /provenance/deep(/0)+: nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels; flatten it$`));
  });

  it('a version too long for a file name of the site', async () => {
    const version = `1.0.0-${'a'.repeat(246)}`;
    const problems = await withManifest((t) => t, version);
    expect(problems).toEqual([
      `registry/objects/chair/versions/${version}/aso.object.json: /version: is ${version.length} characters long; a version may have at most ${MAX_VERSION_LENGTH} (it names a folder and files of the site)`,
    ]);
  });

  it('a key that appears twice, which two readers could read as two manifests', async () => {
    expect(await withManifest((t) => t.replace('"name": "Object chair",', '"name": "Object chair", "name": "Another chair",'))).toEqual([
      `${MANIFEST}: /name: repeats the key "name" in one object; a key may appear only once`,
    ]);
  });

  it('the same rule for publication.json and worlds', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    const pub = fx.path('objects/chair/versions/1.0.0/publication.json');
    const { readFile } = await import('node:fs/promises');
    await writeFile(pub, (await readFile(pub, 'utf8')).replace('"publisher": "test-publisher"', '"publisher": "a", "publisher": "b"'));
    await fx.write('worlds/room.json', '\ufeff{"id":"room","name":"Room","objects":[]}');
    const { problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, validateGltf: false });
    expect(problems.map(formatProblem)).toEqual([
      'registry/objects/chair/versions/1.0.0/publication.json: /publisher: repeats the key "publisher" in one object; a key may appear only once',
      'registry/worlds/room.json: file: starts with a UTF-8 byte order mark (bytes EF BB BF); save the file as UTF-8 without a byte order mark',
    ]);
  });
});

describe('readRegistryJson', () => {
  it('refuses a file larger than the bound without reading it', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    await fx.write('big.json', `"${'x'.repeat(100)}"`);
    expect(await readRegistryJson(fx.path('big.json'), 50)).toEqual({ error: 'is 102 bytes; a registry JSON file may hold at most 50 bytes' });
    expect(await readRegistryJson(fx.path('big.json'))).toMatchObject({ value: 'x'.repeat(100) });
    expect(MAX_JSON_BYTES).toBe(4 * 1024 * 1024);
  });
});
