/** The search index in shards, with the real Pagefind: written per shard, kept when unchanged, refused when incomplete. */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { pageFile } from '../../../src/site/data/page-paths.ts';
import { startSearchIndex, type SearchShard } from '../../../src/site/search/search-index.ts';
import { listFiles } from '../../support/site-files.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-search-index-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A record page's bytes, as the build hands them over. */
const page = (name: string): Uint8Array =>
  new TextEncoder().encode(`<!doctype html><html lang="en"><head><title>${name}</title></head><body><main data-pagefind-body><h1>${name}</h1><p>The ${name} object.</p></main></body></html>`);
/** Record pages of two shards: "a-*" objects in shard 0, "b-*" in shard 1. */
const paths = ['objects/a-one/versions/1.0.0/', 'objects/a-two/versions/1.0.0/', 'objects/b-one/versions/1.0.0/'];
const shardOf = (path: string) => (!path.includes('/versions/') ? undefined : path.startsWith('objects/a-') ? 0 : 1);
const shards = (b: string): SearchShard[] => [
  { digest: 'shard 0', paths: paths.slice(0, 2) },
  { digest: b, paths: paths.slice(2) },
];
/** Every file under `root`, relative, with its bytes. */
const filesOf = async (root: string): Promise<Map<string, string>> =>
  new Map(await Promise.all((await listFiles(root)).map(async (f) => [f, (await readFile(join(root, f))).toString('base64')] as const)));

describe('startSearchIndex', () => {
  it('writes each shard in its folder: shard 0 with Pagefind\'s scripts, the others with their index files only', async () => {
    const out = join(dir, 'site');
    const writer = new OutputWriter(out);
    const index = await startSearchIndex(writer, join(dir, 'digests'), shards('shard 1'), shardOf);
    for (const path of paths) {
      index.add(path, page(path.split('/')[1]!));
      await writer.write(pageFile(path), page(path.split('/')[1]!));
    }
    index.add('objects/a-one/', new TextEncoder().encode('<html></html>'));
    const stats = await index.finish();
    expect(stats).toMatchObject({ pages: 3, shards: 2, indexedShards: 2 });
    const top = await readdir(join(out, 'pagefind'));
    expect(top).toEqual(expect.arrayContaining(['pagefind.js', 'pagefind-worker.js', 'pagefind-entry.json', 'shard-1']));
    // Pagefind's ready-made UIs are left out: the search box draws its results itself.
    expect(top.filter((f) => /^pagefind-(ui|component-ui|modular-ui|highlight)\./.test(f))).toEqual([]);
    const second = await readdir(join(out, 'pagefind', 'shard-1'));
    expect(second.filter((f) => /\.(js|css)$|^wasm\./.test(f))).toEqual([]);
    expect(second).toContain('pagefind-entry.json');
    expect(await readdir(join(out, 'pagefind', 'fragment'))).toHaveLength(2);
    expect(await readdir(join(out, 'pagefind', 'shard-1', 'fragment'))).toHaveLength(1);
    expect(JSON.parse(await readFile(join(dir, 'digests'), 'utf8'))).toEqual(['shard 0', 'shard 1']);
  });

  it('keeps a shard whose digest is the last build\'s, and indexes again only the other, from pages read back', async () => {
    const out = join(dir, 'site');
    const entry = join(out, 'pagefind', 'pagefind-entry.json');
    const before = (await stat(entry)).mtimeMs;
    const writer = new OutputWriter(out);
    const index = await startSearchIndex(writer, join(dir, 'digests'), shards('shard 1, changed'), shardOf);
    for (const path of paths) index.addFromSite(path);
    const stats = await index.finish();
    expect(stats).toMatchObject({ pages: 3, shards: 2, indexedShards: 1 });
    expect((await stat(entry)).mtimeMs).toBe(before);
    // The kept shard's files are part of the site; the indexed one's were written (or found with the same bytes).
    expect([...writer.paths].filter((p) => p.startsWith('pagefind/shard-1/'))).toContain('pagefind/shard-1/pagefind-entry.json');
    expect([...writer.paths]).toContain('pagefind/pagefind.js');
  });

  it('makes the same index files, byte for byte, whatever order the pages come in', async () => {
    const built = await Promise.all(
      [paths, [...paths].reverse()].map(async (order, i) => {
        const out = join(dir, `order-${i}`);
        const writer = new OutputWriter(out);
        const index = await startSearchIndex(writer, join(dir, `order-${i}-digests`), shards('shard 1'), shardOf);
        for (const path of order) index.add(path, page(path.split('/')[1]!));
        await index.finish();
        return filesOf(join(out, 'pagefind'));
      }),
    );
    expect([...built[0]!.keys()].some((f) => /^fragment\/en_\w+\.pf_fragment$/.test(f))).toBe(true);
    expect(built[1]).toEqual(built[0]);
  });

  it('refuses a page that is not one of its shard\'s, or that comes twice, naming it', async () => {
    const index = await startSearchIndex(new OutputWriter(join(dir, 'refusing')), join(dir, 'refusing-digests'), shards('shard 1'), shardOf);
    index.add(paths[1]!, page('a-two'));
    expect(() => index.add(paths[1]!, page('a-two'))).toThrow(`record page /${paths[1]} is not one of search shard 0's pages, or was handed in twice`);
    expect(() => index.add('objects/a-three/versions/1.0.0/', page('a-three'))).toThrow('record page /objects/a-three/versions/1.0.0/ is not one of search shard 0');
    await expect(index.finish()).rejects.toThrow('search shard 0 got 1 of its 2 record pages');
  });

  it('refuses to finish a shard that did not get every record page, naming it and the count', async () => {
    const writer = new OutputWriter(join(dir, 'other-site'));
    const index = await startSearchIndex(writer, join(dir, 'other-digests'), shards('shard 1'), shardOf);
    index.add(paths[0]!, page('a-one'));
    index.add(paths[2]!, page('b-one'));
    await expect(index.finish()).rejects.toThrow('search shard 0 got 1 of its 2 record pages');
  });
});
