/**
 * A cold build into an empty output folder copies the published files on a thread while the registry is checked: the
 * files land byte for byte, the writer knows them and the folders made, versions before the thread starts are left to
 * the build, a failed check leaves the folder as it was, and the site is the one a build copying after the check makes.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/core/types.ts';
import { versionCopies } from '../../src/site/copy-published-files.ts';
import { copyThreadFrom, emptyOrAbsent, EARLY_COPY_VERSIONS, startEarlyCopies } from '../../src/site/early-copies.ts';
import { OutputWriter } from '../../src/site/output-writer.ts';
import { INCOMPLETE_MARKER, markOutputIncomplete } from '../../src/site/stale-output.ts';
import type { SiteData } from '../../src/site/site-data.ts';
import { buildSite } from '../support/build-site.ts';
import { registryFailingAfter } from '../support/fixture-registry.ts';
import { loadSampleSite } from '../support/sample-site.ts';
import { expectSameSite } from '../support/site-files.ts';

const STARTED = 'published files are copied on a thread while the check goes on';
const COPIED = /(\d+) published files and thumbnails copied while the check went on/;

let work: string;
let data: SiteData;
let manifests: Manifest[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-early-copies-'));
  data = await loadSampleSite(join(work, 'cache'));
  manifests = data.objects.flatMap((o) => o.versions.map((v) => v.manifest));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Whether a file is at `path`. */
function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The site paths and sources of the published files of `list`. */
function copiesOf(list: Manifest[]): Array<{ from: string; path: string }> {
  return list.flatMap((m) => [...versionCopies(data.registryRoot, m)]);
}

describe('startEarlyCopies', () => {
  it('copies each version handed to it on a thread, and the writer then holds those files and the folders made', async () => {
    const out = join(work, 'fresh');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 1, existed: false, beforeStart: () => markOutputIncomplete(out) });
    manifests.forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
    expect(copies.started).toBe(true);
    // The thread stops at the end of the check: here it is given the time to reach the last file.
    const expected = copiesOf(manifests);
    await expect.poll(() => exists(writer.file(expected.at(-1)!.path)), { timeout: 30_000 }).toBe(true);
    const copied = await copies.finish();
    expect(expected.length).toBeGreaterThan(manifests.length);
    expect([...copied].sort()).toEqual(expected.map((c) => c.path).sort());
    expect([...writer.paths].sort()).toEqual(expected.map((c) => c.path).sort());
    expect(writer.counts()).toEqual({ files: expected.length, written: expected.length });
    for (const { from, path } of expected) {
      expect((await readFile(writer.file(path))).equals(await readFile(from)), path).toBe(true);
      expect(Math.abs((await stat(writer.file(path))).mtimeMs - (await stat(from)).mtimeMs), path).toBeLessThan(1);
      // Every folder up to the output folder is known as made by this build: the sweep does not list it.
      for (let dir = dirname(writer.file(path)); dir !== out; dir = dirname(dir)) expect(writer.madeFolders.has(dir), dir).toBe(true);
    }
    // A file handed to the thread is claimed: writing it again is the build's mistake, and says so.
    expect(() => writer.write(expected[0]!.path, 'x')).toThrow(/wrote .* twice/);
  });

  it('leaves the versions checked before the thread would start to the build, and starts no thread below that', async () => {
    const out = join(work, 'small');
    const writer = new OutputWriter(out);
    let marked = 0;
    const copies = startEarlyCopies(writer, { from: manifests.length + 1, existed: false, beforeStart: () => marked++ });
    manifests.forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
    expect((await copies.finish()).size).toBe(0);
    expect(copies.started).toBe(false);
    expect(marked).toBe(0);
    expect(writer.paths.size).toBe(0);
    expect((await emptyOrAbsent(out)).existed).toBe(false);
  });

  it('starts the thread with the first clean version when told up front that the check holds enough versions', async () => {
    const out = join(work, 'expected');
    const writer = new OutputWriter(out);
    const from = manifests.length;
    const copies = startEarlyCopies(writer, { from, existed: false, beforeStart: () => markOutputIncomplete(out) });
    copies.expect(from - 1);
    copies.add(data.registryRoot, manifests[0]!, 1);
    expect(copies.started).toBe(false);
    copies.expect(from);
    copies.add(data.registryRoot, manifests[1]!, 2);
    expect(copies.started).toBe(true);
    // What it kept from before it started goes with it.
    const expected = copiesOf(manifests.slice(0, 2));
    await expect.poll(() => exists(writer.file(expected.at(-1)!.path)), { timeout: 30_000 }).toBe(true);
    expect([...(await copies.finish())].sort()).toEqual(expected.map((c) => c.path).sort());

    // Told after the end of the check, it starts nothing.
    const late = startEarlyCopies(new OutputWriter(join(work, 'expected-late')), { from: 1, existed: false });
    await late.finish();
    late.expect(from);
    late.add(data.registryRoot, manifests[0]!, 1);
    expect(late.started).toBe(false);
  });

  it('hands over the versions it kept once the thread starts', async () => {
    const out = join(work, 'later');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 3, existed: false, beforeStart: () => markOutputIncomplete(out) });
    manifests.slice(0, 2).forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
    expect(copies.started).toBe(false);
    manifests.slice(2).forEach((m, i) => copies.add(data.registryRoot, m, i + 3));
    await expect.poll(() => exists(writer.file(copiesOf(manifests).at(-1)!.path)), { timeout: 30_000 }).toBe(true);
    expect([...(await copies.finish())].sort()).toEqual(copiesOf(manifests).map((c) => c.path).sort());
  });

  it('stops copying when told to, and the writer holds only what it copied: the build copies the rest', async () => {
    const out = join(work, 'stopped');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 1, existed: false, beforeStart: () => markOutputIncomplete(out) });
    manifests.forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
    const copied = await copies.finish();
    const all = copiesOf(manifests).map((c) => c.path);
    expect(copied.size).toBeLessThan(all.length);
    expect([...writer.paths].sort()).toEqual([...copied].sort());
    for (const path of all) expect(await exists(writer.file(path)), path).toBe(copied.has(path));
  });

  it('removes what it copied when the check fails: a folder that was not there is gone, an empty one is empty again', async () => {
    for (const existed of [false, true]) {
      const out = join(work, `failed-${existed}`);
      if (existed) await mkdir(out);
      const writer = new OutputWriter(out);
      const copies = startEarlyCopies(writer, { from: 1, existed, beforeStart: () => markOutputIncomplete(out) });
      manifests.forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
      await copies.discard();
      expect(await emptyOrAbsent(out)).toEqual({ empty: true, existed });
    }
  });

  it('copies each thumbnail handed to it once, and takes nothing after the end of the check', async () => {
    const out = join(work, 'thumbnails');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 1, existed: false, beforeStart: () => markOutputIncomplete(out) });
    const thumbnails = [...data.thumbnailFiles];
    expect(thumbnails.length).toBeGreaterThan(1);
    copies.add(data.registryRoot, manifests[0]!, 1);
    for (const [path, file] of thumbnails) copies.addFile(file, path);
    // Two versions with the same image share a thumbnail: handed twice, copied once.
    copies.addFile(thumbnails[0]![1], thumbnails[0]![0]);
    await expect.poll(() => exists(writer.file(thumbnails.at(-1)![0])), { timeout: 30_000 }).toBe(true);
    const copied = await copies.finish();
    copies.addFile(thumbnails[0]![1], 'thumbnails/late.webp');
    const expected = [...copiesOf(manifests.slice(0, 1)).map((c) => c.path), ...thumbnails.map(([path]) => path)];
    expect([...copied].sort()).toEqual(expected.sort());
    for (const [path, file] of thumbnails) expect((await readFile(writer.file(path))).equals(await readFile(file)), path).toBe(true);
    expect(await exists(writer.file('thumbnails/late.webp'))).toBe(false);
  });

  it('stops the thread on close (a build that failed after its check), and may be closed again', async () => {
    const out = join(work, 'closed');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 1, existed: false, beforeStart: () => markOutputIncomplete(out) });
    manifests.forEach((m, i) => copies.add(data.registryRoot, m, i + 1));
    await copies.close();
    await copies.close();
    // A stopped thread says nothing more: there is nothing to adopt.
    await expect(copies.finish()).rejects.toThrow(/the copy thread stopped \(exit code \d+\) before it said what it copied/);
    expect(writer.paths.size).toBe(0);
  });

  it('names the file it could not copy', async () => {
    const out = join(work, 'broken');
    const writer = new OutputWriter(out);
    const copies = startEarlyCopies(writer, { from: 1, existed: false, beforeStart: () => markOutputIncomplete(out) });
    const [first] = manifests;
    const gone = { ...first!, id: 'not-in-the-registry' };
    copies.add(data.registryRoot, gone, 1);
    // The thread makes the file's folder, then fails to read the file.
    await expect.poll(() => exists(writer.file(`objects/not-in-the-registry/versions/${gone.version}`)), { timeout: 30_000 }).toBe(true);
    await expect(copies.finish()).rejects.toThrow(/could not copy .*objects\/not-in-the-registry\/versions\/.*aso\.object\.json to objects\/not-in-the-registry\/.*ENOENT/);
  });
});

describe('copyThreadFrom', () => {
  it('reads ASO_COPY_THREAD, and by default starts the thread from a few hundred versions', () => {
    expect(copyThreadFrom({ ASO_COPY_THREAD: '0' })).toBe(Infinity);
    expect(copyThreadFrom({ ASO_COPY_THREAD: '1' })).toBe(1);
    expect([EARLY_COPY_VERSIONS, Infinity]).toContain(copyThreadFrom({}));
    expect(() => copyThreadFrom({ ASO_COPY_THREAD: 'yes' })).toThrow('ASO_COPY_THREAD must be 0 (copy after the check) or 1 (copy on a thread during it), not "yes"');
  });
});

describe('emptyOrAbsent', () => {
  it('tells a missing folder, an empty one and one that holds a file apart', async () => {
    const dir = join(work, 'look');
    expect(await emptyOrAbsent(dir)).toEqual({ empty: true, existed: false });
    await mkdir(dir);
    expect(await emptyOrAbsent(dir)).toEqual({ empty: true, existed: true });
    await writeFile(join(dir, 'index.html'), '');
    expect(await emptyOrAbsent(dir)).toEqual({ empty: false, existed: true });
  });
});

describe('a build that copies during its check', () => {
  let copied: Awaited<ReturnType<typeof buildSite>>;
  let after: Awaited<ReturnType<typeof buildSite>>;
  let intoSite: Awaited<ReturnType<typeof buildSite>>;

  beforeAll(async () => {
    copied = await buildSite({ outDir: join(work, 'build-early', 'dist'), env: { ASO_COPY_THREAD: '1' } });
    after = await buildSite({ outDir: join(work, 'build-after', 'dist'), env: { ASO_COPY_THREAD: '0' } });
    // A folder that holds a site, built from another cache: the build compares file by file, and copies after the check.
    intoSite = await buildSite({ outDir: join(work, 'build-after', 'dist'), cacheDir: join(work, 'build-after', 'other-cache'), env: { ASO_COPY_THREAD: '1' } });
  }, 600_000);

  it('makes the site a build copying after the check makes, byte for byte', async () => {
    expect(copied.code, copied.stdout + copied.stderr).toBe(0);
    expect(after.code, after.stdout + after.stderr).toBe(0);
    // How many the thread copies depends on the time the check leaves it; the build copies the others.
    expect(copied.stdout).toContain(STARTED);
    expect(Number(COPIED.exec(copied.stdout)?.[1])).toBeLessThanOrEqual(copiesOf(manifests).length + data.thumbnailFiles.size);
    expect(after.stdout).not.toContain(STARTED);
    expect(after.stdout).not.toMatch(COPIED);
    await expectSameSite(join(work, 'build-early', 'dist'), join(work, 'build-after', 'dist'));
    expect(await readdir(join(work, 'build-early', 'dist'))).not.toContain(INCOMPLETE_MARKER);
  });

  it('copies after the check into a folder that holds files, comparing each with the file there', async () => {
    expect(intoSite.code, intoSite.stdout + intoSite.stderr).toBe(0);
    expect(intoSite.stdout).not.toContain(STARTED);
    expect(intoSite.stdout).not.toMatch(COPIED);
    // Only Pagefind's files with names of their own run to run were written again.
    expect(Number(/, (\d+) written \(the rest were unchanged\)/.exec(intoSite.stdout)?.[1])).toBeLessThan(copiesOf(manifests).length);
    await expectSameSite(join(work, 'build-early', 'dist'), join(work, 'build-after', 'dist'));
  });

  it('leaves no output folder when the check fails, and an empty one as empty', { timeout: 120_000 }, async () => {
    const reg = await registryFailingAfter('aso-early-copies-broken-', 2);
    try {
      for (const existed of [false, true]) {
        const outDir = join(reg.parent, `dist-${existed}`);
        if (existed) await mkdir(outDir);
        const result = await buildSite({ outDir, registryDir: reg.root, cacheDir: join(reg.parent, `cache-${existed}`), env: { ASO_COPY_THREAD: '1' } });
        expect(result.code).toBe(1);
        expect(result.stdout).toContain(STARTED);
        expect(result.stderr).toContain('registry/objects/fine/versions/1.0.2/publication.json: file: is missing');
        expect(result.stderr).not.toContain('removed the partial site');
        expect(await emptyOrAbsent(outDir)).toEqual({ empty: true, existed });
      }
    } finally {
      await rm(reg.parent, { recursive: true, force: true });
    }
  });
});
