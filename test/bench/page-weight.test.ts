import { gzipSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSize, recordPageWeight } from '../../src/bench/page-weight.ts';

describe('recordPageWeight', () => {
  let site: string;
  const files: Record<string, string> = {
    'objects/chair/versions/1.0.0/index.html': [
      '<!doctype html><html><head>',
      '<script type="module" src="/_astro/page.js"></script>',
      '<link rel="modulepreload" href="/_astro/preloaded.js">',
      '<script type="application/ld+json">{"@type":"3DModel"}</script>',
      '<script src="https://cdn.example/x.js"></script>',
      '<script type="module">import{a}from"/_astro/inline-dep.js";a()</script>',
      '</head><body></body></html>',
    ].join('\n'),
    '_astro/page.js': 'import{b}from"./shared.js";export*from"./reexport.js";const v=()=>import("./viewer.js");b(v)',
    '_astro/shared.js': 'export const b=(f)=>f;import"./page.js"',
    '_astro/reexport.js': 'export const c=1',
    '_astro/preloaded.js': 'export const p=2',
    '_astro/inline-dep.js': 'export const a=()=>0',
    '_astro/viewer.js': 'export const heavy="x".repeat(1000)',
  };
  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), 'aso-page-weight-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(site, path)), { recursive: true });
      await writeFile(join(site, path), text);
    }
  });
  afterAll(() => rm(site, { recursive: true, force: true }));

  it('weighs the page and the JavaScript it loads by static imports, without dynamic imports, data or other origins', async () => {
    const page = join(site, 'objects/chair/versions/1.0.0/index.html');
    const weight = await recordPageWeight(site, page);
    const html = Buffer.from(files['objects/chair/versions/1.0.0/index.html']!);
    expect(weight.html).toEqual({ bytes: html.length, gzipBytes: gzipSync(html, { level: 9 }).length });
    expect(weight.initialJs.files.sort()).toEqual(['_astro/inline-dep.js', '_astro/page.js', '_astro/preloaded.js', '_astro/reexport.js', '_astro/shared.js']);
    const inline = 'import{a}from"/_astro/inline-dep.js";a()';
    const counted = [inline, ...['page', 'preloaded', 'inline-dep', 'shared', 'reexport'].map((f) => files[`_astro/${f}.js`]!)];
    expect(weight.initialJs.bytes).toBe(Buffer.byteLength(counted.join('')));
  });

  it('never follows a path out of the site', async () => {
    const page = join(site, 'escape.html');
    await writeFile(page, '<script type="module" src="../../etc/passwd.js"></script><script type="module" src="/_astro/reexport.js"></script>');
    expect((await recordPageWeight(site, page)).initialJs.files).toEqual(['_astro/reexport.js']);
  });
});

describe('folderSize', () => {
  it('adds up the files of a folder tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aso-folder-size-'));
    try {
      await mkdir(join(dir, 'a', 'b'), { recursive: true });
      await writeFile(join(dir, 'one.txt'), '12345');
      await writeFile(join(dir, 'a', 'b', 'two.txt'), '123');
      expect(await folderSize(dir)).toEqual({ bytes: 8, files: 2 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
