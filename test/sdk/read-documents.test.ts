import { describe, expect, it } from 'vitest';
import { apiCatalog, apiIndex, apiObject, apiVersion } from '@aso-registry/core/documents/api-documents';
import { groupObjects } from '@aso-registry/core/documents/catalog';
import { InvalidResponseError } from '../../packages/sdk/src/errors.ts';
import { readCatalog, readIndex, readObject, readVersion } from '../../packages/sdk/src/read-documents.ts';
import { record, REGISTRY, rep } from '../core/records.ts';

const URL_OF = 'https://registry.test/api/v1/doc.json';
const objects = groupObjects([
  record('chair', '1.0.0', { preview: rep('preview', 'png') }),
  record('chair', '1.1.0', { createdAt: '2026-01-03T00:00:00Z' }),
  record('lamp', '2.0.0-rc.1'),
]);
const chair = objects[0]!;
const copy = <T>(v: T): T => structuredClone(v);

/** The pointer and message of the InvalidResponseError a reader throws. */
async function refusal(read: () => unknown): Promise<{ pointer: string; message: string }> {
  let error: unknown;
  try {
    await read();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidResponseError);
  const e = error as InvalidResponseError;
  expect(e.url).toBe(URL_OF);
  return { pointer: e.pointer, message: e.message };
}

describe('the SDK reads what the site writes', () => {
  it('accepts the index, the catalog, an object and a version as core builds them', async () => {
    expect(readIndex(apiIndex(REGISTRY, objects), URL_OF).counts).toEqual({ objects: 2, versions: 3 });
    expect(readCatalog(apiCatalog(REGISTRY, objects), URL_OF).objects.map((o) => o.id)).toEqual(['chair', 'lamp']);
    expect(readObject(apiObject(REGISTRY, chair), URL_OF, 'chair').versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
    const v = chair.versions[1]!;
    expect((await readVersion(apiVersion(REGISTRY, chair, v, []), URL_OF, 'chair', '1.0.0')).representations.map((r) => r.role)).toEqual(['representation', 'preview']);
  });
});

describe('readIndex and readCatalog', () => {
  it('name the first field that is not as documented', async () => {
    expect(await refusal(() => readIndex([], URL_OF))).toEqual({ pointer: '', message: `invalid response from ${URL_OF}: (document) must be an object, got an array` });
    expect((await refusal(() => readIndex({ ...apiIndex(REGISTRY, objects), schema: 'aso/api/v2/index' }, URL_OF))).message).toBe(
      `invalid response from ${URL_OF}: /schema must be "aso/api/v1/index", got "aso/api/v2/index"`,
    );
    expect(await refusal(() => readIndex({ ...apiIndex(REGISTRY, objects), objects: 'api/v1/objects.json' }, URL_OF))).toMatchObject({ pointer: '/objects' });
    const catalog = copy(apiCatalog(REGISTRY, objects));
    (catalog.objects[1] as { versions: unknown[] }).versions = ['2.0.0-rc.1', 'v2'];
    expect((await refusal(() => readCatalog(catalog, URL_OF))).message).toBe(`invalid response from ${URL_OF}: /objects/1/versions/1 must be a semantic version, got "v2"`);
    const noTags = copy(apiCatalog(REGISTRY, objects));
    delete (noTags.objects[0] as Partial<(typeof noTags.objects)[0]>).tags;
    expect((await refusal(() => readCatalog(noTags, URL_OF))).message).toBe(`invalid response from ${URL_OF}: /objects/0/tags must be an array, got nothing`);
  });
});

describe('readObject', () => {
  it('refuses a document about another object and a version entry that is not complete', async () => {
    expect((await refusal(() => readObject(apiObject(REGISTRY, chair), URL_OF, 'lamp'))).message).toBe(`invalid response from ${URL_OF}: /id must be "lamp", got "chair"`);
    const doc = copy(apiObject(REGISTRY, chair));
    (doc.versions[1] as { prerelease: unknown }).prerelease = 'no';
    expect((await refusal(() => readObject(doc, URL_OF, 'chair'))).message).toBe(`invalid response from ${URL_OF}: /versions/1/prerelease must be a boolean, got string "no"`);
    const badHash = copy(apiObject(REGISTRY, chair));
    badHash.versions[0]!.recordHash = 'md5-x';
    expect(await refusal(() => readObject(badHash, URL_OF, 'chair'))).toMatchObject({ pointer: '/versions/0/recordHash' });
  });
});

describe('readVersion', () => {
  const doc = () => copy(apiVersion(REGISTRY, chair, chair.versions[1]!, [{ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.0.0' }] }]));

  it('refuses another version, or a manifest about another version', async () => {
    expect((await refusal(() => readVersion(doc(), URL_OF, 'chair', '1.1.0'))).message).toBe(`invalid response from ${URL_OF}: /version must be "1.1.0", got "1.0.0"`);
    const other = doc();
    other.manifest.version = '9.9.9';
    expect((await refusal(() => readVersion(other, URL_OF, 'chair', '1.0.0'))).pointer).toBe('/manifest/version');
  });

  it('checks the manifest with the schema and names the field', async () => {
    const d = doc();
    (d.manifest as { tags: unknown }).tags = ['wood', 'wood'];
    expect(await refusal(() => readVersion(d, URL_OF, 'chair', '1.0.0'))).toMatchObject({ pointer: '/manifest/tags', message: expect.stringContaining('must not repeat items') });
  });

  it('names a representation, publication or world field that is wrong', async () => {
    const cases: Array<[(d: ReturnType<typeof doc>) => void, string, string]> = [
      [(d) => void ((d.representations[1] as { role: unknown }).role = 'thumbnail'), '/representations/1/role', 'must be "representation" or "preview", got "thumbnail"'],
      [(d) => void ((d.representations[0] as { byteLength: unknown }).byteLength = -1), '/representations/0/byteLength', 'must be a non-negative integer, got -1'],
      [(d) => void ((d.representations[0] as { url: unknown }).url = 'files/mesh.glb'), '/representations/0/url', 'must be an absolute URL, got "files/mesh.glb"'],
      [(d) => void ((d.publication as { publisher: unknown }).publisher = null), '/publication/publisher', 'must be a string, got null'],
      [(d) => void ((d.worlds[0] as { name: unknown }).name = 3), '/worlds/0/name', 'must be a string, got number 3'],
      [(d) => void ((d as { agentUrl: unknown }).agentUrl = undefined), '/agentUrl', 'must be a string, got nothing'],
    ];
    for (const [edit, pointer, problem] of cases) {
      const d = doc();
      edit(d);
      expect(await refusal(() => readVersion(d, URL_OF, 'chair', '1.0.0'))).toEqual({ pointer, message: `invalid response from ${URL_OF}: ${pointer} ${problem}` });
    }
  });
});
