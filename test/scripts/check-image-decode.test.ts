/** `npm run check` and `npm run build` refuse a preview that does not decode, naming the file; the build writes nothing. */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite, repoRoot } from '../support/build-site.ts';
import { createFixture, type Fixture } from '../registry/fixture.ts';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';

const run = promisify(execFile);
/** The sample site's URL: the build starts its page renderer (one per URL) before the check stops it, and this one is built already. */
const REGISTRY_URL = DEFAULT_REGISTRY_URL;
const PROBLEM = 'registry/objects/lamp/versions/1.0.0/representations/preview.jpg: file: does not decode as image/jpeg: the file ends before the image data does (truncated?)';

let fx: Fixture;

beforeAll(async () => {
  fx = await createFixture(REGISTRY_URL);
  const photo = await readFile(join(repoRoot, 'registry', 'objects', 'field-photo', 'versions', '1.0.0', 'representations', 'photo.jpg'));
  await fx.addVersion({ id: 'chair', version: '1.0.0' });
  // Its header reads; its pixels stop halfway.
  await fx.addVersion({ id: 'lamp', version: '1.0.0', preview: { id: 'preview', type: 'image', format: 'jpg', mediaType: 'image/jpeg', bytes: photo.subarray(0, photo.length >> 1) } });
});

afterAll(() => fx.cleanup());

it('npm run check exits 1 with one line naming the file', async () => {
  const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const failed = await run(process.execPath, [tsx, join(repoRoot, 'scripts', 'check.ts')], { cwd: fx.repo, env: { ...process.env, ASO_REGISTRY_DIR: '', REGISTRY_URL } }).then(
    () => ({ code: 0, stdout: '', stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect({ code: failed.code, stdout: failed.stdout, stderr: failed.stderr }).toEqual({ code: 1, stdout: '', stderr: `${PROBLEM}\n` });
});

it('npm run build stops on it before writing anything', async () => {
  const outDir = join(fx.repo, 'dist');
  const result = await buildSite({ outDir, registryDir: fx.root, registryUrl: REGISTRY_URL });
  expect(result.code).not.toBe(0);
  expect(result.stdout + result.stderr).toContain(PROBLEM);
  expect(await readdir(outDir).catch(() => [])).toEqual([]);
}, 120_000);
