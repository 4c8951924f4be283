/** `npm run build` runs the build's code bundled once per version of it, without a TypeScript loader. */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, buildBundleDir, buildCodeKey } from '../../scripts/build-bundle.mjs';

let root: string;

/** A project whose build entry imports a module of src/ and starts a thread module beside itself, as the real build does. */
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'aso-build-bundle-'));
  await mkdir(join(root, 'scripts'), { recursive: true });
  await mkdir(join(root, 'src', 'site'), { recursive: true });
  await writeFile(join(root, 'src', 'greeting.ts'), "export const greeting: string = 'one';\n");
  // The thread modules are bundled too, each with what it imports, beside the build's entry.
  await mkdir(join(root, 'src', 'site', 'render'), { recursive: true });
  await writeFile(join(root, 'src', 'site', 'render', 'render-thread.ts'), "import { greeting } from '../../greeting.ts';\nexport const beside: string = `render ${greeting}`;\n");
  await mkdir(join(root, 'src', 'registry'), { recursive: true });
  await writeFile(join(root, 'src', 'registry', 'gltf-validation-thread.ts'), "import { greeting } from '../greeting.ts';\nprocess.stdout.write(`validation ${greeting}`);\n");
  await writeFile(
    join(root, 'scripts', 'build-site.ts'),
    "import { greeting } from '../src/greeting.ts';\nconst { beside } = await import(new URL('./render-thread.mjs', import.meta.url).href);\nprocess.stdout.write(`${greeting} ${beside}`);\n",
  );
  await writeFile(join(root, 'package-lock.json'), '{}');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const run = (entry: string): string => spawnSync(process.execPath, [entry], { encoding: 'utf8' }).stdout;

describe('buildBundle', () => {
  it('bundles the TypeScript into one module that runs with plain node, with its thread modules beside it', async () => {
    const entry = await buildBundle(root);
    expect(entry.startsWith(buildBundleDir(root))).toBe(true);
    expect(run(entry)).toBe('one render one');
    expect(run(join(dirname(entry), 'gltf-validation-thread.mjs'))).toBe('validation one');
  });

  it('makes a bundle once per version of the code, and another when the code changes', async () => {
    const entry = await buildBundle(root);
    const made = (await stat(entry)).mtimeMs;
    expect(await buildBundle(root)).toBe(entry);
    expect((await stat(entry)).mtimeMs).toBe(made);
    await writeFile(join(root, 'src', 'greeting.ts'), "export const greeting: string = 'two';\n");
    const next = await buildBundle(root);
    expect(next).not.toBe(entry);
    expect(run(next)).toBe('two render two');
    // No half-made bundle is left behind.
    expect((await readdir(buildBundleDir(root))).filter((d) => d.endsWith('.tmp'))).toEqual([]);
  });

  it('says what esbuild found wrong in the code', async () => {
    await writeFile(join(root, 'src', 'greeting.ts'), 'export const greeting: string = ;\n');
    await expect(buildBundle(root)).rejects.toThrow(/greeting\.ts/);
    await writeFile(join(root, 'src', 'greeting.ts'), "export const greeting: string = 'three';\n");
    expect(run(await buildBundle(root))).toBe('three render three');
  });
});

describe('buildCodeKey', () => {
  it('changes with a file of src/, a new file and the lock file, and not with the registry or the site', async () => {
    const first = buildCodeKey(root);
    expect(buildCodeKey(root)).toBe(first);
    await writeFile(join(root, 'src', 'extra.ts'), 'export {};\n');
    const added = buildCodeKey(root);
    expect(added).not.toBe(first);
    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    const locked = buildCodeKey(root);
    expect(locked).not.toBe(added);
    await mkdir(join(root, 'registry'), { recursive: true });
    await mkdir(join(root, 'dist'), { recursive: true });
    await writeFile(join(root, 'registry', 'x.json'), '{}');
    await writeFile(join(root, 'dist', 'index.html'), '<p>site</p>');
    expect(buildCodeKey(root)).toBe(locked);
  });
});
