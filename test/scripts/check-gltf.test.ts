/** `npm run check` on real-world glTF: the validator's warnings and infos per file, `--strict`, `--json`, and the report of an asset no runtime can draw. */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { BROWSER_GLTF_EXTENSIONS } from '@aso-registry/core/format/gltf-extensions';
import { tempRegistry, writeVersion } from '../support/fixture-registry.ts';
import { featureAssets, unknownExtensionAsset } from '../support/gltf-features.ts';

const REGISTRY_URL = 'https://registry.example.org';
const UNKNOWN = 'EXT_made_up_for_tests';

describe('npm run check on glTF with warnings, infos and unknown extensions', () => {
  let parent: string;
  let root: string;
  const file = (id: string) => `registry/objects/${id}/versions/1.0.0/representations/mesh.glb`;

  beforeAll(async () => {
    ({ parent, root } = await tempRegistry('aso-check-gltf-'));
    const assets = await featureAssets();
    const glb = (bytes: Uint8Array) => [{ id: 'mesh', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', bytes }];
    await writeVersion(root, { id: 'cube-ktx2', version: '1.0.0', files: glb(assets.find((a) => a.name === 'ktx2')!.bytes) }, REGISTRY_URL);
    await writeVersion(root, { id: 'cube-webp', version: '1.0.0', files: glb(assets.find((a) => a.name === 'webp')!.bytes) }, REGISTRY_URL);
    await writeVersion(root, { id: 'cube-unknown', version: '1.0.0', files: glb(await unknownExtensionAsset(UNKNOWN)) }, REGISTRY_URL);
  }, 120_000);
  afterAll(() => rm(parent, { recursive: true, force: true }));

  const check = (...args: string[]) => runCheck([...args, '--registry', root], { REGISTRY_URL }, parent);

  it('passes, and prints the warnings and infos of each file and the report of the asset no runtime can draw', async () => {
    const out = await check();
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe('registry OK: 3 objects, 3 versions, 3 files, ' + lines[0]!.split(', 3 files, ')[1]);
    expect(lines).toContain(`${file('cube-ktx2')}: 2 warnings (VALUE_NOT_IN_LIST, IMAGE_UNRECOGNIZED_FORMAT), 2 infos (UNSUPPORTED_EXTENSION, UNUSED_OBJECT)`);
    expect(lines).toContain(`${file('cube-unknown')}: 2 infos (UNSUPPORTED_EXTENSION, UNUSED_OBJECT)`);
    expect(lines).toContain(
      `${file('cube-unknown')}: no installed runtime can load it: mesh/browser-gltf: extension "${UNKNOWN}" is not supported; expected ${BROWSER_GLTF_EXTENSIONS.join(', ')} | ` +
        'mesh/browser-image: type "mesh" is not supported; expected image; format "glb" is not supported; expected png, jpg, jpeg, webp, avif; media type "model/gltf-binary" is not supported; expected image/png, image/jpeg, image/webp, image/avif',
    );
    // A file with nothing to say is not listed.
    expect(lines.filter((l) => l.startsWith(file('cube-webp')))).toEqual([]);
  });

  it('says the same with gltf-validator on threads of its own as on the check\'s thread, and names a wrong thread count', async () => {
    const json = (threads: string) => runCheck(['--json', '--registry', root], { REGISTRY_URL, ASO_VALIDATION_THREADS: threads }, parent);
    const [here, threaded] = await Promise.all([json('0'), json('2')]);
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(threaded.stdout).toBe(here.stdout);
    expect(await json('many')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'check failed: ASO_VALIDATION_THREADS must be a whole number of threads, 0 to do the work on the calling thread (not "many")\n',
    });
  });

  it('fails with --strict on validator warnings, naming the file and the codes', async () => {
    const out = await check('--strict');
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(`${file('cube-ktx2')}: file: gltf-validator reported 2 warnings (VALUE_NOT_IN_LIST, IMAGE_UNRECOGNIZED_FORMAT); --strict refuses warnings\n`);
  });

  it('lists every message, the inventory and the compatibility of each glTF file with --json', async () => {
    const out = await check('--json');
    const doc = JSON.parse(out.stdout);
    expect(doc.ok).toBe(true);
    const ktx2 = doc.files.find((f: { file: string }) => f.file === file('cube-ktx2'));
    expect(ktx2).toMatchObject({
      version: 'cube-ktx2@1.0.0',
      representation: 'mesh',
      runtimes: ['browser-gltf'],
      gltf: {
        inventory: { triangles: 12, vertices: 24, drawCalls: 1, materials: 1, textures: 1, animations: 0, skins: 0, extensionsUsed: ['KHR_texture_basisu'], extensionsRequired: ['KHR_texture_basisu'] },
        notes: { warnings: 2, infos: 2, hints: 0, truncated: false },
      },
    });
    expect(ktx2.gltf.notes.messages).toHaveLength(4);
    for (const m of ktx2.gltf.notes.messages) expect(m).toMatchObject({ code: expect.any(String), message: expect.any(String), severity: expect.any(Number) });
    const unknown = doc.files.find((f: { file: string }) => f.file === file('cube-unknown'));
    expect(unknown).toMatchObject({ runtimes: [], gltf: { inventory: { extensionsRequired: [UNKNOWN] } } });
    expect(unknown.compatibility).toContain(`mesh/browser-gltf: extension "${UNKNOWN}" is not supported`);
    expect((await check('--json', '--strict')).code).toBe(1);
  });
});
