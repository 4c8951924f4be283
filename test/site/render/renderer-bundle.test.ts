/** The page renderer's cache key and the environment its astro build runs in. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedRenderer, rendererBuildEnv, rendererCacheDir, rendererDigest } from '../../../src/site/render/renderer-bundle.ts';

describe('rendererDigest', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'aso-renderer-digest-'));
    await mkdir(join(root, 'src', 'pages'), { recursive: true });
    await writeFile(join(root, 'src', 'pages', 'index.astro'), '<h1>one</h1>');
    await writeFile(join(root, 'astro.config.mjs'), 'export default {};');
    await writeFile(join(root, 'package-lock.json'), '{}');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('changes with the code, the lock file, a new file and the registry URL, and only with them', async () => {
    const first = await rendererDigest(root, 'https://registry.example.org');
    expect(await rendererDigest(root, 'https://registry.example.org')).toBe(first);
    expect(await rendererDigest(root, 'https://other.example.org')).not.toBe(first);
    await writeFile(join(root, 'src', 'pages', 'index.astro'), '<h1>two</h1>');
    const edited = await rendererDigest(root, 'https://registry.example.org');
    expect(edited).not.toBe(first);
    await writeFile(join(root, 'src', 'extra.ts'), 'export {};');
    const added = await rendererDigest(root, 'https://registry.example.org');
    expect(added).not.toBe(edited);
    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(await rendererDigest(root, 'https://registry.example.org')).not.toBe(added);
    // A registry folder or the output is not part of the code.
    await mkdir(join(root, 'registry'), { recursive: true });
    await writeFile(join(root, 'registry', 'x.json'), '{}');
    const withRegistry = await rendererDigest(root, 'https://registry.example.org');
    await writeFile(join(root, 'registry', 'x.json'), '{"changed":true}');
    expect(await rendererDigest(root, 'https://registry.example.org')).toBe(withRegistry);
  });
});

describe('cachedRenderer', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'aso-renderer-cached-'));
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src', 'a.ts'), 'export {};');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('finds a finished build of the code by its digest, and none of a build that did not finish', async () => {
    const url = 'https://registry.example.org';
    const digest = await rendererDigest(root, url);
    expect(await cachedRenderer(root, url)).toEqual({ digest, bundle: null });
    const dir = join(rendererCacheDir(root), digest);
    await mkdir(dir, { recursive: true });
    expect((await cachedRenderer(root, url)).bundle).toBeNull();
    await writeFile(join(dir, 'complete'), '');
    expect(await cachedRenderer(root, url)).toEqual({ digest, bundle: { dir, digest, built: false } });
    await writeFile(join(root, 'src', 'a.ts'), 'export const changed = true;');
    expect((await cachedRenderer(root, url)).bundle).toBeNull();
  });
});

describe('rendererBuildEnv', () => {
  it('drops what a test runner or dev server sets for Vite and builds for production', () => {
    const env = rendererBuildEnv({ PATH: '/bin', BASE_URL: '/', MODE: 'test', DEV: '1', PROD: '', SSR: '1', NODE_ENV: 'test', VITEST: 'true', VITEST_POOL_ID: '1', VITE_X: 'y', ASO_CACHE_DIR: 'c' }, 'https://registry.example.org');
    expect(env).toEqual({ PATH: '/bin', ASO_CACHE_DIR: 'c', NODE_ENV: 'production', REGISTRY_URL: 'https://registry.example.org', ASTRO_TELEMETRY_DISABLED: '1' });
  });
});
