/**
 * Names that a case-insensitive file system or host takes for one are refused, naming both: two versions of one
 * object, two files of one version, two object folders.
 */
import { describe, expect, it } from 'vitest';
import { objectIdProblem } from '@aso-registry/core/format/object-id';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { glbFile, pngFile, REGISTRY_URL, temporaryFixtures, type Fixture } from './fixture.ts';

const fixture = temporaryFixtures();

async function problems(fx: Fixture): Promise<string[]> {
  return (await loadRegistry(fx.root, { registryUrl: REGISTRY_URL })).problems.map(formatProblem);
}

const ONE = 'a case-insensitive file system or host holds them as one';

describe('check: names that differ only by case', () => {
  it('refuses two versions of one object such as 1.0.0-RC.1 and 1.0.0-rc.1, naming both', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0-RC.1' });
    await fx.addVersion({ id: 'chair', version: '1.0.0-rc.1' });
    await fx.addVersion({ id: 'chair', version: '1.0.0+Build.7' });
    await fx.addVersion({ id: 'chair', version: '1.0.0+build.7' });
    expect(await problems(fx)).toEqual([
      `registry/objects/chair/versions/1.0.0+build.7: file: differs from versions/1.0.0+Build.7 only by case; ${ONE} folder, so two versions may not differ only by case`,
      `registry/objects/chair/versions/1.0.0-rc.1: file: differs from versions/1.0.0-RC.1 only by case; ${ONE} folder, so two versions may not differ only by case`,
    ]);
  });

  it('refuses two files of one version such as Mesh.glb and mesh.GLB, naming both, the preview included', async () => {
    const fx = await fixture();
    const mesh = await glbFile('Mesh');
    await fx.addVersion({ id: 'chair', version: '1.0.0', files: [mesh, { ...(await glbFile('mesh')), format: 'GLB' }], preview: { ...(await pngFile('MESH')), format: 'glb' } });
    const manifest = 'registry/objects/chair/versions/1.0.0/aso.object.json';
    expect(await problems(fx)).toEqual(
      expect.arrayContaining([
        `${manifest}: /representations/1: names the file representations/mesh.GLB, which differs from representations/Mesh.glb of /representations/0 only by case or Unicode form; ${ONE} file`,
        `${manifest}: /preview: names the file representations/MESH.glb, which differs from representations/Mesh.glb of /representations/0 only by case or Unicode form; ${ONE} file`,
      ]),
    );
  });

  it('refuses two object folders that differ only by case, naming both (object ids are lowercase, so one of them is refused anyway)', async () => {
    expect(objectIdProblem('Chair')).not.toBeNull();
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await fx.addVersion({ id: 'Chair', version: '1.0.0' });
    expect(await problems(fx)).toContain(`registry/objects/chair: file: differs from objects/Chair only by case or Unicode form; ${ONE} folder`);
  });

  it('tells apart names that differ by more than case, and folds composed and decomposed accents and ß alike', async () => {
    const fx = await fixture();
    await fx.addVersion({ id: 'chair', version: '1.0.0-rc.1' });
    await fx.addVersion({ id: 'chair', version: '1.0.0-rc.2' });
    await fx.addVersion({
      id: 'chair',
      version: '2.0.0',
      files: [await glbFile('Stra\u00dfe'), await glbFile('STRASSE'), await glbFile('caf\u00e9'), await glbFile('CAFE\u0301'), await glbFile('cafe')],
    });
    const manifest = 'registry/objects/chair/versions/2.0.0/aso.object.json';
    expect(await problems(fx)).toEqual([
      `${manifest}: /representations/1: names the file representations/STRASSE.glb, which differs from representations/Stra\u00dfe.glb of /representations/0 only by case or Unicode form; ${ONE} file`,
      `${manifest}: /representations/3: names the file representations/CAFE\u0301.glb, which differs from representations/caf\u00e9.glb of /representations/2 only by case or Unicode form; ${ONE} file`,
    ]);
  });
});
