/** An invalid registry stops the build with the check's messages and leaves the previous site as it was. */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

let parent: string;

beforeAll(async () => {
  const reg = await tempRegistry('aso-invalid-');
  parent = reg.parent;
  await writeVersion(reg.root, {
    id: 'broken-object',
    version: '1.0.0',
    files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() }],
  });
  // One byte changed after publication: the declared hash no longer matches.
  const file = join(reg.root, 'objects/broken-object/versions/1.0.0/representations/picture.png');
  const bytes = await readFile(file);
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
  await writeFile(file, bytes);
});

afterAll(() => rm(parent, { recursive: true, force: true }));

it('fails naming the file, and does not touch an existing dist/', async () => {
  const outDir = join(parent, 'dist');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'index.html'), 'previous site');
  const result = await buildSite({ outDir, registryDir: join(parent, 'registry'), cacheDir: join(parent, 'cache') });
  expect(result.code).not.toBe(0);
  const output = result.stdout + result.stderr;
  expect(output).toContain('registry/objects/broken-object/versions/1.0.0/aso.object.json: /representations/0/hash: hash mismatch for representations/picture.png');
  expect(await readFile(join(outDir, 'index.html'), 'utf8')).toBe('previous site');
});
