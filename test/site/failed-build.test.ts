/**
 * A build that fails after it began writing `dist/` removes the partial site (a deploy checkout's .git excepted) and
 * says so; the next build writes a whole site, and a whole site holds no marker.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INCOMPLETE_MARKER } from '../../src/site/output/stale-output.ts';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

let parent: string;
let registry: string;

beforeAll(async () => {
  const reg = await tempRegistry('aso-failed-build-');
  parent = reg.parent;
  registry = reg.root;
  await writeVersion(registry, { id: 'plain-object', version: '1.0.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() }] });
});

afterAll(() => rm(parent, { recursive: true, force: true }));

it('removes the half-written site of a build that failed while writing, keeping .git, and says so', async () => {
  const outDir = join(parent, 'dist');
  await mkdir(join(outDir, '.git'), { recursive: true });
  await writeFile(join(outDir, '.git', 'HEAD'), 'ref: refs/heads/pages\n');
  await writeFile(join(outDir, 'index.html'), 'previous site');
  // A file where the build must make a folder: page generation fails after the build has written its first files.
  await writeFile(join(outDir, 'api'), 'in the way');
  const failed = await buildSite({ outDir, registryDir: registry, cacheDir: join(parent, 'cache') });
  expect(failed.code).not.toBe(0);
  expect(failed.stderr).toContain(`the build failed while writing ${outDir}; removed the partial site there so that it cannot be deployed (the next build writes it whole)`);
  expect(await readdir(outDir)).toEqual(['.git']);
  expect(await readFile(join(outDir, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/pages\n');

  const built = await buildSite({ outDir, registryDir: registry, cacheDir: join(parent, 'cache') });
  expect(built.code, built.stdout + built.stderr).toBe(0);
  const entries = await readdir(outDir);
  expect(entries).toContain('index.html');
  expect(entries).not.toContain(INCOMPLETE_MARKER);
}, 240_000);
