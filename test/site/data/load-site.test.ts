/** The site's data from a real registry: checked first, with the thumbnails set on it once they are made. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { representationPath } from '@aso-registry/core/format/paths';
import { addThumbnails, checkSite, loadSite } from '../../../src/site/data/load-site.ts';
import { repoRoot } from '../../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../../support/fixture-registry.ts';

const URL = 'https://registry.example.org';
let parent: string;
let root: string;
let cache: string;

beforeAll(async () => {
  ({ parent, root } = await tempRegistry('aso-load-site-'));
  cache = await mkdtemp(join(tmpdir(), 'aso-load-site-cache-'));
  const whole = await pngBytes(400, 300);
  await writeVersion(root, { id: 'whole-object', version: '1.0.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: whole }] });
  // Whole when checked; its file is cut short before its thumbnail is made (below).
  const other = await pngBytes(400, 300, { r: 40, g: 80, b: 200 });
  await writeVersion(root, { id: 'cut-object', version: '1.0.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: other }] });
  // Small enough to be its own thumbnail (thumbnail-as-is.ts).
  await writeVersion(root, { id: 'small-object', version: '1.0.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes(64, 48) }] });
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
  await rm(cache, { recursive: true, force: true });
});

describe('checkSite', () => {
  it("leaves thumbnails to addThumbnails, which sets each version's and lists its file; one that cannot be made stays null", async () => {
    const warnings: string[] = [];
    const site = await checkSite({ registryRoot: root, registryUrl: URL, cacheDir: join(cache, 'a') });
    const { data } = site;
    expect(data.objects.map((o) => o.id)).toEqual(['cut-object', 'small-object', 'whole-object']);
    expect(data.objects.map((o) => o.versions[0]!.thumbnail)).toEqual([null, null, null]);
    // A file cut short after the check decoded it (changed under the build): sharp cannot make its thumbnail.
    const picture = join(root, 'objects', 'cut-object', 'versions', '1.0.0', 'representations', 'picture.png');
    const checked = await readFile(picture);
    await writeFile(picture, checked.subarray(0, checked.length >> 1));
    try {
      await addThumbnails(site, join(cache, 'a'), (m) => warnings.push(m));
    } finally {
      await writeFile(picture, checked);
    }
    const [cut, small, whole] = data.objects.map((o) => o.versions[0]!);
    expect(cut!.thumbnail).toBeNull();
    expect(whole!.thumbnail).toMatchObject({ width: 320, height: 240 });
    // The small image is shown as it is: the path of the version's own file, which the build publishes anyway.
    expect(small!.thumbnail).toEqual({ width: 64, height: 48, path: representationPath('small-object', '1.0.0', 'picture', 'png') });
    expect([...data.thumbnailFiles.keys()]).toEqual([whole!.thumbnail!.path]);
    // The catalog and the objects hold the same entries: they see the thumbnail too.
    expect(data.catalog.find((o) => o.id === 'whole-object')!.versions[0]!.thumbnail).toBe(whole!.thumbnail);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no thumbnail');
  });

  it('sends the glTF files after the first ones to the validation threads', async () => {
    const sample = { registryRoot: join(repoRoot, 'registry'), registryUrl: URL };
    // The sample holds five distinct meshes: the first two are validated on the calling thread.
    const { validatedOnThreads } = await checkSite({ ...sample, cacheDir: join(cache, 'threads'), gltfThreads: { threads: 1, after: 2 } });
    expect(validatedOnThreads).toEqual({ files: 3, threads: 1 });
  });

  it('gives, once its thumbnails are added, the data loadSite gives', async () => {
    const site = await checkSite({ registryRoot: root, registryUrl: URL, cacheDir: join(cache, 'b') });
    await addThumbnails(site, join(cache, 'b'));
    expect(site.data).toEqual(await loadSite({ registryRoot: root, registryUrl: URL, cacheDir: join(cache, 'b') }));
  });
});
