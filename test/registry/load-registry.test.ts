import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkRegistry, formatSummary, loadRegistry, type LoadOptions } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { sha256File } from '../../src/io/hash-file.ts';
import {
  temporaryFixtures,
  glbFile,
  pngFile,
  REGISTRY_URL,
  sri,
  tinyGltf,
  type Fixture,
  type FileSpec,
} from './fixture.ts';

const V = 'registry/objects/chair/versions/1.0.0';
const MANIFEST = `${V}/aso.object.json`;
const PUBLICATION = `${V}/publication.json`;

const fixture = temporaryFixtures();

/** A registry with one valid version, chair@1.0.0 (mesh.glb, reference.png). */
async function chair(spec: Partial<Parameters<Fixture['addVersion']>[0]> = {}): Promise<Fixture> {
  const fx = await fixture();
  await fx.addVersion({ id: 'chair', version: '1.0.0', ...spec });
  return fx;
}

/** The formatted problems of a fixture's registry. */
async function problems(fx: Fixture, opts: Partial<LoadOptions> = {}): Promise<string[]> {
  const { problems: found } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, ...opts });
  return found.map(formatProblem);
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('valid JSON');
}

const gltfFile = (id = 'mesh', bytes = tinyGltf()): FileSpec => ({ id, type: 'mesh', format: 'gltf', mediaType: 'model/gltf+json', bytes });

describe('loadRegistry: a valid registry', () => {
  it('reads objects sorted by id, versions newest first, latest, worlds and stats', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'table', version: '1.0.0' });
    await fx.addVersion({ id: 'chair', version: '1.0.0', createdAt: '2025-01-01T00:00:00Z' });
    await fx.addVersion({ id: 'chair', version: '1.1.0', createdAt: '2025-02-01T00:00:00Z', preview: await pngFile('preview') });
    await fx.addVersion({ id: 'chair', version: '2.0.0-rc.1', createdAt: '2025-03-01T00:00:00Z', files: [gltfFile()] });
    await fx.addWorld({ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.1.0' }, { id: 'table', version: '1.0.0' }] });

    const { registry, problems: found } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(found).toEqual([]);
    expect(registry.root).toBe(fx.root);
    expect(registry.registryUrl).toBe(REGISTRY_URL);
    expect(registry.objects.map((o) => o.id)).toEqual(['chair', 'table']);
    const chairObject = registry.objects[0]!;
    expect(chairObject.versions.map((v) => v.version)).toEqual(['2.0.0-rc.1', '1.1.0', '1.0.0']);
    expect(chairObject.latest).toBe('1.1.0');
    expect(registry.worlds).toEqual([{ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.1.0' }, { id: 'table', version: '1.0.0' }] }]);

    const v110 = chairObject.versions[1]!;
    expect(v110.dir).toBe(fx.path('objects/chair/versions/1.1.0'));
    expect(v110.manifestFile).toBe(fx.path('objects/chair/versions/1.1.0/aso.object.json'));
    expect(v110.manifest.name).toBe('Object chair');
    expect(v110.publication.publisher).toBe('test-publisher');
    expect(v110.files.map((f) => [f.rep.id, f.role, f.path])).toEqual([
      ['mesh', 'representation', fx.path('objects/chair/versions/1.1.0/representations/mesh.glb')],
      ['reference', 'representation', fx.path('objects/chair/versions/1.1.0/representations/reference.png')],
      ['preview', 'preview', fx.path('objects/chair/versions/1.1.0/representations/preview.png')],
    ]);

    const glb = (await glbFile()).bytes.length;
    const png = (await pngFile()).bytes.length;
    const bytes = 3 * glb + 4 * png + tinyGltf().length;
    expect(registry.stats).toEqual({ objects: 2, versions: 4, files: 8, bytes, byPointer: 0, bySize: 0 });
  });

  it('accepts build metadata in a version folder', async () => {
    const fx = await chair({ version: '1.0.0+build.7' });
    expect(await problems(fx)).toEqual([]);
  });

  it('accepts a registry without worlds and an empty objects folder', async () => {
    const fx = await fixture();
    const result = await checkRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(result).toEqual({ ok: true, problems: [], summary: { objects: 0, versions: 0, files: 0, bytes: 0, byPointer: 0, bySize: 0 }, files: [] });
  });

  it('gives the same result hashing one file at a time', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await fx.addVersion({ id: 'chair', version: '1.0.1', edit: (m) => (m.representations[0]!.byteLength = 1) });
    const many = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
    const one = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, concurrency: 1 });
    expect(one).toEqual(many);
    expect(one.problems).toHaveLength(1);
  });

  it('hashes each file once through the given hasher', async () => {
    const fx = await chair({ preview: await pngFile('preview') });
    const seen: string[] = [];
    const hashFile = (path: string) => {
      seen.push(path);
      return sha256File(path);
    };
    expect(await problems(fx, { hashFile })).toEqual([]);
    expect(seen.sort()).toEqual(['mesh.glb', 'preview.png', 'reference.png'].map((n) => fx.path(`objects/chair/versions/1.0.0/representations/${n}`)));
  });

  it('writes problem paths relative to repoRoot', async () => {
    const fx = await chair({ edit: (m) => (m.name = '') });
    expect(await problems(fx, { repoRoot: fx.root })).toEqual([
      'objects/chair/versions/1.0.0/aso.object.json: /name: must NOT have fewer than 1 characters',
    ]);
  });

  it('sums a check up in one line', async () => {
    expect(formatSummary({ objects: 5, versions: 8, files: 21, bytes: 1234567, byPointer: 0, bySize: 0 })).toBe(
      'registry OK: 5 objects, 8 versions, 21 files, 1,234,567 bytes verified',
    );
    expect(formatSummary({ objects: 1, versions: 1, files: 1, bytes: 1, byPointer: 0, bySize: 0 })).toBe('registry OK: 1 object, 1 version, 1 file, 1 byte verified');
    expect(formatSummary({ objects: 2, versions: 3, files: 1, bytes: 10, byPointer: 4, bySize: 1 })).toBe(
      'registry OK: 2 objects, 3 versions, 1 file, 10 bytes verified; 4 files by their Git LFS pointers, without the content; 1 file by its size in the blob store (--deep downloads and hashes them)',
    );
  });
});

describe('loadRegistry: manifests', () => {
  it('names a manifest that is not JSON, with the parse error', async () => {
    const fx = await chair();
    const text = '{ "schema": "aso/object/v0.1", }';
    await fx.write('objects/chair/versions/1.0.0/aso.object.json', text);
    const found = await problems(fx);
    expect(found[0]).toBe(`${MANIFEST}: file: is not valid JSON: ${jsonError(text)}`);
    // publication.json still names the hash of the bytes that are there now.
    expect(found[1]).toMatch(new RegExp(`^${PUBLICATION}: /recordHash: is not the hash of the exact bytes of aso.object.json: expected sha256-`));
    expect(found).toHaveLength(2);
  });

  it('names a manifest that is not UTF-8', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/aso.object.json', new Uint8Array([0x7b, 0xff, 0x7d]));
    expect((await problems(fx))[0]).toBe(`${MANIFEST}: file: is not valid UTF-8`);
  });

  it('lists every schema problem with its pointer', async () => {
    const fx = await chair({
      edit: (m) => {
        (m as unknown as Record<string, unknown>).color = 'red';
        m.tags = ['a', 'a'];
        m.representations[1]!.byteLength = -1;
      },
    });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /color: is not an allowed property`,
      `${MANIFEST}: /tags: must not repeat items (items 1 and 0 are equal)`,
      `${MANIFEST}: /representations/1/byteLength: must be >= 0`,
      `${MANIFEST}: /representations/1/byteLength: byte length mismatch for representations/reference.png: expected -1, actual ${(await pngFile()).bytes.length}`,
    ]);
  });

  it('refuses an object folder that differs from the manifest id', async () => {
    const fx = await chair({ edit: (m) => (m.id = 'stool') });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /id: must equal the object folder name: expected "chair", actual "stool"`,
      `${MANIFEST}: /representations/0/url: is not the URL of the file: expected ${REGISTRY_URL}/objects/stool/versions/1.0.0/representations/mesh.glb, actual ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/mesh.glb`,
      `${MANIFEST}: /representations/1/url: is not the URL of the file: expected ${REGISTRY_URL}/objects/stool/versions/1.0.0/representations/reference.png, actual ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/reference.png`,
    ]);
  });

  it('refuses a version folder that differs from the manifest version', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    const v = fx.path('objects/chair/versions/1.0.0');
    await rename(v, fx.path('objects/chair/versions/1.0.1'));
    expect(await problems(fx)).toEqual([
      'registry/objects/chair/versions/1.0.1/aso.object.json: /version: must equal the version folder name: expected "1.0.1", actual "1.0.0"',
    ]);
  });

  it('refuses a url that is not the one of the file, with expected and actual', async () => {
    const fx = await chair({ edit: (m) => (m.representations[0]!.url = 'https://cdn.test/mesh.glb') });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/0/url: is not the URL of the file: expected ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/mesh.glb, actual https://cdn.test/mesh.glb`,
    ]);
  });

  it('checks urls against the registry URL it is given', async () => {
    const fx = await chair();
    expect(await problems(fx, { registryUrl: 'https://other.test' })).toEqual([
      `${MANIFEST}: /representations/0/url: is not the URL of the file: expected https://other.test/objects/chair/versions/1.0.0/representations/mesh.glb, actual ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/mesh.glb`,
      `${MANIFEST}: /representations/1/url: is not the URL of the file: expected https://other.test/objects/chair/versions/1.0.0/representations/reference.png, actual ${REGISTRY_URL}/objects/chair/versions/1.0.0/representations/reference.png`,
    ]);
  });

  it('refuses duplicate representation ids', async () => {
    const fx = await chair({ files: [await glbFile('mesh'), { ...(await glbFile('mesh')), format: 'gltf' }] });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/1/id: repeats the representation id "mesh" of /representations/0/id; ids must be unique, the preview's included`,
      `${V}/representations/mesh.gltf: file: unknown file in representations/: not <representation id>.<format> of any representation in aso.object.json; expected only mesh.glb`,
    ]);
  });

  it('counts the preview as an id too', async () => {
    const fx = await chair({ files: [await glbFile('mesh'), await pngFile('preview')], preview: await pngFile('preview') });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /preview/id: repeats the representation id "preview" of /representations/1/id; ids must be unique, the preview's included`,
    ]);
  });

  it('refuses two representations that name the same file', async () => {
    const mesh = await glbFile('a.b');
    const fx = await chair({ files: [{ ...mesh, format: 'c' }, { ...mesh, id: 'a', format: 'b.c' }] });
    expect(await problems(fx)).toEqual([`${MANIFEST}: /representations/1: names the same file representations/a.b.c as /representations/0`]);
  });

  it('refuses a representation whose file name leaves representations/', async () => {
    const fx = await chair({ edit: (m) => (m.representations[0]!.id = '../../mesh') });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/0: makes the file name "../../mesh.glb", which is not a single file inside representations/`,
      `${V}/representations/mesh.glb: file: unknown file in representations/: not <representation id>.<format> of any representation in aso.object.json; expected only reference.png`,
    ]);
  });

  it.each([
    ['.', '', '..'],
    ['', '', '.'],
  ])('refuses id "%s" with format "%s", which make the file name "%s"', async (id, format, name) => {
    const fx = await chair({ edit: (m) => ((m.representations[0]!.id = id), (m.representations[0]!.format = format)) });
    expect(await problems(fx)).toContain(`${MANIFEST}: /representations/0: makes the file name "${name}", which is not a single file inside representations/`);
  });
});

describe('loadRegistry: representation files', () => {
  it('names a declared file that is missing', async () => {
    const fx = await chair();
    await rm(fx.path('objects/chair/versions/1.0.0/representations/mesh.glb'));
    expect(await problems(fx)).toEqual([`${MANIFEST}: /representations/0: declares representations/mesh.glb, which is missing`]);
  });

  it('names every file when representations/ is missing', async () => {
    const fx = await chair();
    await rm(fx.path('objects/chair/versions/1.0.0/representations'), { recursive: true });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/0: declares representations/mesh.glb, which is missing`,
      `${MANIFEST}: /representations/1: declares representations/reference.png, which is missing`,
    ]);
  });

  it('refuses a file that is not <representation id>.<format>', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/representations/mesh.GLB', 'x');
    await fx.write('objects/chair/versions/1.0.0/representations/notes/readme.txt', 'x');
    expect(await problems(fx)).toEqual([
      `${V}/representations/mesh.GLB: file: unknown file in representations/: not <representation id>.<format> of any representation in aso.object.json; expected only mesh.glb, reference.png`,
      `${V}/representations/notes: file: unknown folder in representations/; expected only mesh.glb, reference.png`,
    ]);
  });

  it('refuses a byte length that differs, with expected and actual', async () => {
    const glb = await glbFile();
    const fx = await chair({ edit: (m) => (m.representations[0]!.byteLength = glb.bytes.length + 1) });
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/0/byteLength: byte length mismatch for representations/mesh.glb: expected ${glb.bytes.length + 1}, actual ${glb.bytes.length}`,
    ]);
  });

  it('refuses a hash that differs, with expected and actual', async () => {
    const fx = await chair();
    const png = (await pngFile()).bytes.slice();
    png[png.length - 1] = png.at(-1)! ^ 1;
    await fx.write('objects/chair/versions/1.0.0/representations/reference.png', png);
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/1/hash: hash mismatch for representations/reference.png: expected ${sri((await pngFile()).bytes)}, actual ${sri(png)}`,
      `${V}/representations/reference.png: file: does not decode as image/png: its "IEND" chunk at byte ${png.length - 12} fails its CRC check (the bytes are damaged)`,
    ]);
  });

  it('refuses a changed length and hash in one run', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/representations/mesh.glb', 'short');
    const glb = (await glbFile()).bytes;
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: /representations/0/byteLength: byte length mismatch for representations/mesh.glb: expected ${glb.length}, actual 5`,
      `${MANIFEST}: /representations/0/hash: hash mismatch for representations/mesh.glb: expected ${sri(glb)}, actual ${sri(new TextEncoder().encode('short'))}`,
      `${V}/representations/mesh.glb: file: gltf-validator GLB_UNEXPECTED_END_OF_HEADER: Unexpected end of header. (at byte 5)`,
    ]);
  });

  it('reports gltf-validator errors with their pointer in the file', async () => {
    const gltf = JSON.parse(new TextDecoder().decode(tinyGltf()));
    delete gltf.asset.version;
    gltf.accessors[0].count = 4;
    const fx = await chair({ files: [gltfFile('mesh', new TextEncoder().encode(JSON.stringify(gltf)))] });
    expect(await problems(fx)).toEqual([
      `${V}/representations/mesh.gltf: /asset: gltf-validator UNDEFINED_PROPERTY: Property 'version' must be defined.`,
    ]);
    gltf.asset.version = '2.0';
    const fx2 = await chair({ files: [gltfFile('mesh', new TextEncoder().encode(JSON.stringify(gltf)))] });
    expect(await problems(fx2)).toEqual([
      `${V}/representations/mesh.gltf: /accessors/0: gltf-validator ACCESSOR_TOO_LONG: Accessor (offset: 0, length: 48) does not fit referenced bufferView [0] length 36.`,
    ]);
  });

  it('refuses glTF that references a file outside itself', async () => {
    const fx = await chair({ files: [gltfFile('mesh', tinyGltf('mesh.bin'))] });
    expect(await problems(fx)).toEqual([
      `${V}/representations/mesh.gltf: /buffers/0/uri: references the external file "mesh.bin"; only data: URIs or GLB-embedded buffers are allowed`,
    ]);
  });

  it('skips gltf-validator when asked to', async () => {
    const fx = await chair({ files: [gltfFile('mesh', tinyGltf('mesh.bin'))] });
    expect(await problems(fx, { validateGltf: false })).toEqual([]);
  });

  it('does not count files that failed in the summary', async () => {
    const fx = await chair({ files: [gltfFile('mesh', tinyGltf('mesh.bin')), await pngFile()] });
    const result = await checkRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(result.ok).toBe(false);
    expect(result.summary).toEqual({ objects: 1, versions: 1, files: 1, bytes: (await pngFile()).bytes.length, byPointer: 0, bySize: 0 });
  });
});

describe('loadRegistry: the tree', () => {
  it('refuses unknown files and folders in a version folder', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/notes.txt', 'x');
    await fx.write('objects/chair/versions/1.0.0/.DS_Store', 'x');
    await fx.write('objects/chair/versions/1.0.0/extra/mesh.glb', 'x');
    expect(await problems(fx)).toEqual([
      `${V}/.DS_Store: file: unknown file in a version folder; expected only aso.object.json, publication.json and representations/`,
      `${V}/extra: file: unknown folder in a version folder; expected only aso.object.json, publication.json and representations/`,
      `${V}/notes.txt: file: unknown file in a version folder; expected only aso.object.json, publication.json and representations/`,
    ]);
  });

  it('refuses a folder where a file belongs and a file where a folder belongs', async () => {
    const fx = await fixture();
    await mkdir(fx.path('objects/chair/versions/1.0.0/aso.object.json'), { recursive: true });
    await fx.write('objects/chair/versions/1.0.0/representations', 'x');
    expect(await problems(fx)).toEqual([
      `${MANIFEST}: file: must be a file`,
      `${V}/representations: file: must be a folder`,
      `${MANIFEST}: file: is missing`,
      `${PUBLICATION}: file: is missing`,
    ]);
  });

  it('refuses unknown entries at the registry root, in objects/, in an object folder and in versions/', async () => {
    const fx = await chair();
    await fx.write('README.md', 'x');
    await fx.write('objects/notes.txt', 'x');
    await fx.write('objects/chair/notes.txt', 'x');
    await fx.write('objects/chair/versions/latest', 'x');
    await mkdir(fx.path('objects/stool/versions'), { recursive: true });
    expect(await problems(fx)).toEqual([
      'registry/README.md: file: unknown file in the registry folder; expected only objects/, worlds/, publishers/, ledger.jsonl, retractions.jsonl and log.pub',
      'registry/objects/chair/notes.txt: file: unknown file in an object folder; expected only versions/',
      'registry/objects/chair/versions/latest: file: unknown file in versions/; expected only version folders',
      'registry/objects/notes.txt: file: unknown file in objects/; expected only object folders',
      'registry/objects/stool: file: holds no version (expected versions/<version>/aso.object.json)',
    ]);
  });

  it('refuses a symlink to a representation, even one that points inside the registry', async () => {
    const fx = await chair();
    const mesh = fx.path('objects/chair/versions/1.0.0/representations/mesh.glb');
    await rm(mesh);
    await symlink(join(fx.repo, 'elsewhere.glb'), mesh);
    await writeFile(join(fx.repo, 'elsewhere.glb'), (await glbFile()).bytes);
    await symlink('mesh.glb', fx.path('objects/chair/versions/1.0.0/representations/copy.glb'));
    expect(await problems(fx)).toEqual([
      `${V}/representations/copy.glb: file: is a symbolic link; the registry holds only plain files and folders`,
      `${V}/representations/mesh.glb: file: is a symbolic link; the registry holds only plain files and folders`,
    ]);
  });

  it('refuses a symlinked manifest, version folder, object folder, worlds folder and registry folder', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await symlink(fx.path('objects/chair/versions/1.0.0/aso.object.json'), fx.path('objects/chair/versions/1.0.0/copy.json'));
    await symlink(fx.path('objects/chair/versions/1.0.0'), fx.path('objects/chair/versions/1.0.1'));
    await symlink(fx.path('objects/chair'), fx.path('objects/stool'));
    await mkdir(join(fx.repo, 'worlds'));
    await symlink(join(fx.repo, 'worlds'), fx.path('worlds'));
    expect(await problems(fx)).toEqual([
      'registry/worlds: file: is a symbolic link; the registry holds only plain files and folders',
      'registry/objects/chair/versions/1.0.1: file: is a symbolic link; the registry holds only plain files and folders',
      `${V}/copy.json: file: is a symbolic link; the registry holds only plain files and folders`,
      'registry/objects/stool: file: is a symbolic link; the registry holds only plain files and folders',
    ]);
    const linked = join(fx.repo, 'linked');
    await symlink(fx.root, linked);
    const { problems: found } = await loadRegistry(linked, { registryUrl: REGISTRY_URL });
    expect(found.map(formatProblem)).toEqual(['linked: file: is a symbolic link; the registry folder must be a plain folder']);
  });

  it('names a registry folder that does not exist or is a file', async () => {
    const fx = await fixture();
    const missing = await loadRegistry(join(fx.repo, 'nothing'), { registryUrl: REGISTRY_URL });
    expect(missing.problems.map(formatProblem)).toEqual(['nothing: file: the registry folder does not exist']);
    await writeFile(join(fx.repo, 'file'), 'x');
    const file = await loadRegistry(join(fx.repo, 'file'), { registryUrl: REGISTRY_URL });
    expect(file.problems.map(formatProblem)).toEqual(['file: file: is not a folder']);
  });

  it('collects the problems of every version in one run', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0', edit: (m) => (m.name = '') });
    await fx.addVersion({ id: 'chair', version: '1.1.0', edit: (m) => (m.representations[0]!.byteLength = 0) });
    await fx.addVersion({ id: 'table', version: '1.0.0', editPublication: (p) => (p.publisher = '') });
    await fx.addVersion({ id: 'table', version: '2.0.0' });
    const result = await checkRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      `${MANIFEST}: /name: must NOT have fewer than 1 characters`,
      `registry/objects/chair/versions/1.1.0/aso.object.json: /representations/0/byteLength: byte length mismatch for representations/mesh.glb: expected 0, actual ${(await glbFile()).bytes.length}`,
      'registry/objects/table/versions/1.0.0/publication.json: /publisher: must not be empty',
    ]);
    // chair@1.1.0 is well-formed and listed; chair@1.0.0 and table@1.0.0 are not.
    expect(result.summary.versions).toBe(2);
  });
});

describe('loadRegistry: many problems', () => {
  it('reports every problem of a ledger of 150,000 broken lines, each with its line', async () => {
    const fx = await chair();
    await fx.write('ledger.jsonl', 'x\n'.repeat(150_000));
    const { problems: found } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, validateGltf: false });
    const lines = found.filter((p) => p.file === 'registry/ledger.jsonl' && p.pointer?.startsWith('line '));
    expect(lines).toHaveLength(150_000);
    expect(formatProblem(lines[149_999]!)).toMatch(/^registry\/ledger\.jsonl: line 150000: is not JSON/);
  });
});

describe('loadRegistry: files that cannot be read', () => {
  it('names a file whose read fails and goes on with the rest', async () => {
    const fx = await chair();
    const hashFile = async (path: string) => {
      if (path.endsWith('mesh.glb')) throw new Error(`EIO: i/o error, read '${path}'`);
      return sha256File(path);
    };
    const mesh = fx.path('objects/chair/versions/1.0.0/representations/mesh.glb');
    expect(await problems(fx, { hashFile })).toEqual([`${V}/representations/mesh.glb: file: cannot be read: EIO: i/o error, read '${mesh}'`]);
  });

  it('refuses a special file (a named pipe) without reading it', async () => {
    const fx = await chair();
    await promisify(execFile)('mkfifo', [fx.path('objects/chair/versions/1.0.0/representations/mesh.glb.pipe')]);
    expect(await problems(fx)).toEqual([`${V}/representations/mesh.glb.pipe: file: is not a plain file or folder`]);
  });
});

describe('loadRegistry: publication.json', () => {
  it('names a missing publication.json', async () => {
    const fx = await chair();
    await rm(fx.path('objects/chair/versions/1.0.0/publication.json'));
    expect(await problems(fx)).toEqual([`${PUBLICATION}: file: is missing`]);
  });

  it('names a publication.json that is not JSON', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/publication.json', '{');
    expect(await problems(fx)).toEqual([`${PUBLICATION}: file: is not valid JSON: ${jsonError('{')}`]);
  });

  it('refuses a record hash that is not the hash of the manifest bytes', async () => {
    const fx = await chair();
    const path = 'objects/chair/versions/1.0.0/aso.object.json';
    const original = await readFile(fx.path(path));
    const reformatted = `${JSON.stringify(JSON.parse(original.toString('utf8')))}\n`;
    await fx.write(path, reformatted);
    expect(await problems(fx)).toEqual([
      `${PUBLICATION}: /recordHash: is not the hash of the exact bytes of aso.object.json: expected ${sri(new TextEncoder().encode(reformatted))}, actual ${sri(original)}`,
    ]);
  });

  it.each([
    ['publicationId', 'not-a-uuid', '/publicationId: must be a UUID (8-4-4-4-12 hexadecimal digits)'],
    ['publicationId', 'urn:uuid:3b241101-e2bb-4255-8caf-4136c566a962', '/publicationId: must be a UUID (8-4-4-4-12 hexadecimal digits)'],
    ['publishedAt', '2025-01-02T00:00:00', '/publishedAt: must be an RFC 3339 date-time with an offset or Z'],
    ['publishedAt', '2025-01-02', '/publishedAt: must be an RFC 3339 date-time with an offset or Z'],
    ['publisher', '', '/publisher: must not be empty'],
    ['publisher', '   ', '/publisher: must not be empty'],
    ['publisher', 7, '/publisher: must be string'],
    ['recordHash', `sha256-${'A'.repeat(42)}=`, '/recordHash: must be sha256-<base64 of the 32-byte digest> (43 base64 characters and "=")'],
  ])('refuses %s = %j', async (key, value, message) => {
    const fx = await chair({ editPublication: (p) => ((p as unknown as Record<string, unknown>)[key] = value) });
    expect(await problems(fx)).toEqual([`${PUBLICATION}: ${message}`]);
  });

  it('accepts publishedAt with an offset and an uppercase UUID', async () => {
    const fx = await chair({
      editPublication: (p) => {
        p.publishedAt = '2025-01-02T09:30:00+09:00';
        p.publicationId = '3B241101-E2BB-4255-8CAF-4136C566A962';
      },
    });
    expect(await problems(fx)).toEqual([]);
  });

  it('refuses missing and extra fields', async () => {
    const fx = await chair({
      editPublication: (p) => {
        delete (p as Partial<typeof p>).publisher;
        (p as unknown as Record<string, unknown>).comment = 'x';
      },
    });
    expect(await problems(fx)).toEqual([`${PUBLICATION}: /publisher: is required but missing`, `${PUBLICATION}: /comment: is not an allowed property`]);
  });

  it('refuses a publication.json that is not an object', async () => {
    const fx = await chair();
    await fx.write('objects/chair/versions/1.0.0/publication.json', '[]');
    expect(await problems(fx)).toEqual([`${PUBLICATION}: file: must be a JSON object`]);
  });
});

describe('loadRegistry: worlds', () => {
  async function withWorld(world: unknown, name = 'room'): Promise<string[]> {
    const fx = await chair();
    await fx.writeJson(`worlds/${name}.json`, world);
    return problems(fx);
  }

  it('refuses a world that references a version not in the registry', async () => {
    expect(await withWorld({ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.0.0' }, { id: 'chair', version: '9.9.9' }, { id: 'lamp', version: '1.0.0' }] })).toEqual([
      'registry/worlds/room.json: /objects/1: references chair@9.9.9, which is not in the registry',
      'registry/worlds/room.json: /objects/2: references lamp@1.0.0, which is not in the registry',
    ]);
  });

  it('refuses an id that differs from the file name', async () => {
    expect(await withWorld({ id: 'hall', name: 'Room', objects: [] })).toEqual([
      'registry/worlds/room.json: /id: must equal the file name: expected "room", actual "hall"',
    ]);
  });

  it('refuses a world without a name, with extra fields or a bad entry', async () => {
    expect(await withWorld({ id: 'room', objects: [{ id: 'chair' }, 'chair@1.0.0'], owner: 'x' })).toEqual([
      'registry/worlds/room.json: /name: is required but missing',
      'registry/worlds/room.json: /owner: is not an allowed property',
      'registry/worlds/room.json: /objects/0/version: is required but missing',
      'registry/worlds/room.json: /objects/1: must be an object { "id", "version" }',
    ]);
  });

  it('refuses an entry listed twice', async () => {
    expect(await withWorld({ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.0.0' }, { id: 'chair', version: '1.0.0' }] })).toEqual([
      'registry/worlds/room.json: /objects/1: lists chair@1.0.0 again (already at /objects/0)',
    ]);
  });

  it('names a world that is not JSON and files that are not worlds', async () => {
    const fx = await chair();
    await fx.write('worlds/room.json', 'nope');
    await fx.write('worlds/notes.txt', 'x');
    expect(await problems(fx)).toEqual([
      'registry/worlds/notes.txt: file: unknown file in worlds/; expected only <world-id>.json files',
      `registry/worlds/room.json: file: is not valid JSON: ${jsonError('nope')}`,
    ]);
  });

  it('does not repeat a problem of a version for each world that lists it', async () => {
    const fx = await chair({ edit: (m) => (m.name = '') });
    await fx.addWorld({ id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.0.0' }] });
    expect(await problems(fx)).toEqual([`${MANIFEST}: /name: must NOT have fewer than 1 characters`]);
  });
});

