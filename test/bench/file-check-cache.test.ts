/** The build's content-keyed cache of file hashes and gltf-validator results. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAssets } from '../../src/bench/synthetic-registry.ts';
import { openFileCheckCache } from '../../src/registry/file-check-cache.ts';
import { sha256File } from '../../src/io/hash-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-file-checks-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('openFileCheckCache', () => {
  it('hashes a file once, then answers from the cache until the file changes', async () => {
    const file = join(dir, 'a.bin');
    await writeFile(file, 'first bytes');
    const cache = join(dir, 'cache');
    const one = await openFileCheckCache(cache);
    const first = await one.hashFile(file);
    expect(first).toMatchObject(await sha256File(file));
    // A file read to be hashed hands its bytes on, so that gltf-validator and the image check do not read it again.
    expect(Buffer.from(first.bytes!).toString()).toBe('first bytes');
    await one.save();

    const two = await openFileCheckCache(cache);
    const hit = await two.hashFile(file);
    expect(hit).toEqual(await sha256File(file));
    expect(hit.bytes).toBeUndefined();
    expect(two.stats()).toMatchObject({ hashHits: 1, hashMisses: 0 });

    // Same size, mtime set back: ctime still tells the bytes changed.
    const { mtime } = await import('node:fs/promises').then((fs) => fs.stat(file));
    await writeFile(file, 'other bytes');
    await utimes(file, mtime, mtime);
    const digest = await two.hashFile(file);
    expect(digest).toMatchObject(await sha256File(file));
    expect(two.stats()).toMatchObject({ hashHits: 1, hashMisses: 1 });
  });

  it('validates glTF bytes once per hash and keeps the findings of a bad file', async () => {
    const { glb } = await makeAssets();
    const good = [join(dir, 'a.glb'), join(dir, 'b.glb')];
    for (const f of good) await writeFile(f, glb);
    const bad = join(dir, 'bad.glb');
    await writeFile(bad, 'not a glb');
    const cache = join(dir, 'cache');
    const checks = await openFileCheckCache(cache);
    expect(checks.gltfKnown).toBe(0);
    for (const f of good) expect((await checks.validateGltf(f, 'glb', await checks.hashFile(f))).findings).toEqual([]);
    const findings = await checks.validateGltf(bad, 'glb', await checks.hashFile(bad));
    expect(findings.findings.length).toBeGreaterThan(0);
    expect(checks.stats()).toMatchObject({ gltfMisses: 2, gltfHits: 1 });
    await checks.save();

    const again = await openFileCheckCache(cache);
    // The good bytes and the bad ones: what the validator will not be asked about again.
    expect(again.gltfKnown).toBe(2);
    expect(await again.validateGltf(bad, 'glb', await again.hashFile(bad))).toEqual(findings);
    expect(again.stats()).toMatchObject({ gltfMisses: 0, gltfHits: 1, hashMisses: 0 });
  });

  it('checks an image once per hash and media type, and keeps the answer with the header it read', async () => {
    const { default: sharp } = await import('sharp');
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } }).png().toBuffer();
    const good = join(dir, 'good.png');
    const bad = join(dir, 'bad.png');
    await writeFile(good, png);
    await writeFile(bad, 'not an image');
    const cache = join(dir, 'cache');
    const checks = await openFileCheckCache(cache);
    const header = { format: 'png', width: 4, height: 4, space: 'srgb' };
    expect(await checks.checkImage(good, 'image/png', await checks.hashFile(good))).toEqual({ problem: null, header: expect.objectContaining(header) });
    const { problem } = await checks.checkImage(bad, 'image/png', await checks.hashFile(bad));
    expect(problem).toMatch(/^is declared image\/png but is not an image that can be read/);
    expect(checks.stats()).toMatchObject({ imageMisses: 2, imageHits: 0 });
    await checks.save();

    const again = await openFileCheckCache(cache);
    // The header comes from the cache file as the check read it: the thumbnail step relies on it.
    expect(await again.checkImage(good, 'image/png', await again.hashFile(good))).toEqual({ problem: null, header: expect.objectContaining(header) });
    expect(await again.checkImage(bad, 'image/png', await again.hashFile(bad))).toEqual({ problem, header: null });
    expect((await again.checkImage(good, 'image/jpeg', await again.hashFile(good))).problem).toMatch(/holds PNG/);
    expect(again.stats()).toMatchObject({ imageMisses: 1, imageHits: 2 });
  });

  it('starts empty when the cache file is not its own', async () => {
    const cache = join(dir, 'cache');
    const checks = await openFileCheckCache(cache);
    await checks.save();
    const { fileCheckCachePath } = await import('../../src/registry/file-check-cache.ts');
    await writeFile(fileCheckCachePath(cache), '{"format":"something else"}');
    const file = join(dir, 'x');
    await writeFile(file, 'x');
    const reopened = await openFileCheckCache(cache);
    await reopened.hashFile(file);
    expect(reopened.stats()).toMatchObject({ hashHits: 0, hashMisses: 1 });
  });

  it('is keyed by content: a second clone at another path reuses every hash, and a changed file is hashed again', async () => {
    const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const run = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' });
    const origin = join(dir, 'origin');
    const files = ['objects/a/versions/1.0.0/representations/mesh.glb', 'objects/b/versions/2.0.0/representations/photo.png', 'ledger.jsonl'];
    for (const [i, f] of files.entries()) {
      await mkdir(join(origin, 'registry', f, '..'), { recursive: true });
      await writeFile(join(origin, 'registry', f), `bytes of file ${i}\n`.repeat(100 + i));
    }
    run(origin, 'init', '-q', '-b', 'main');
    run(origin, 'add', '-A');
    run(origin, 'commit', '-q', '-m', 'registry');
    const [first, second] = [join(dir, 'ci-run-1', 'checkout'), join(dir, 'elsewhere', 'ci-run-2')];
    run(dir, 'clone', '-q', origin, first);
    run(dir, 'clone', '-q', origin, second);

    const cache = join(dir, 'restored-cache');
    const one = await openFileCheckCache(cache, join(first, 'registry'));
    for (const f of files) expect(await one.hashFile(join(first, 'registry', f))).toMatchObject(await sha256File(join(first, 'registry', f)));
    expect(one.stats()).toMatchObject({ hashHits: 0, hashMisses: files.length });
    await one.save();

    await writeFile(join(second, 'registry', files[2]!), 'changed in this clone\n');
    const two = await openFileCheckCache(cache, join(second, 'registry'));
    for (const f of files) expect(await two.hashFile(join(second, 'registry', f))).toMatchObject(await sha256File(join(second, 'registry', f)));
    expect(two.stats()).toMatchObject({ hashHits: files.length - 1, hashMisses: 1 });
  });
});
