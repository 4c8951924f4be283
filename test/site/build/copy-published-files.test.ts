/** The published bytes of the sample registry copied into a site: every file once, byte for byte, and only once. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestPath, representationPath } from '@aso-registry/core/format/paths';
import { copyPublishedFiles, copyThumbnails } from '../../../src/site/build/copy-published-files.ts';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let data: SiteData;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-copy-published-'));
  data = await loadSampleSite(join(work, 'cache'));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** A writer that records how many copies it was handed and had not finished, at most. */
class WatchedWriter extends OutputWriter {
  pending = 0;
  most = 0;
  override async copy(from: string, path: string): Promise<boolean> {
    this.most = Math.max(this.most, ++this.pending);
    try {
      return await super.copy(from, path);
    } finally {
      this.pending--;
    }
  }
}

describe('copyPublishedFiles', () => {
  it("copies each version's manifest, representation and preview files byte for byte, and then every thumbnail", async () => {
    const out = join(work, 'site');
    const writer = new WatchedWriter(out);
    await copyPublishedFiles(data, writer);
    expect([...writer.paths].filter((p) => p.startsWith('thumbnails/'))).toEqual([]);
    await copyThumbnails(data, writer);
    expect(data.thumbnailFiles.size).toBeGreaterThan(0);
    const expected = new Set<string>(data.thumbnailFiles.keys());
    for (const object of data.objects) {
      for (const { manifest } of object.versions) {
        expected.add(manifestPath(manifest.id, manifest.version));
        for (const rep of [manifest.preview, ...manifest.representations]) if (rep) expected.add(representationPath(manifest.id, manifest.version, rep.id, rep.format));
      }
    }
    expect([...writer.paths].sort()).toEqual([...expected].sort());
    for (const path of expected) {
      const from = data.thumbnailFiles.get(path) ?? join(data.registryRoot, ...path.split('/'));
      expect((await readFile(writer.file(path))).equals(await readFile(from)), path).toBe(true);
    }
    expect(writer.most).toBeGreaterThan(1);
    expect(writer.most).toBeLessThanOrEqual(64);
  });

  it('copies a preview that is one of the representations once', async () => {
    const [object] = data.objects;
    const [entry, ...rest] = object!.versions;
    const manifest = { ...entry!.manifest, preview: entry!.manifest.representations[0] };
    const shared: SiteData = { ...data, objects: [{ ...object!, versions: [{ ...entry!, manifest }, ...rest] }], thumbnailFiles: new Map() };
    const writer = new OutputWriter(join(work, 'shared'));
    // The writer throws when a path is handed to it twice.
    await copyPublishedFiles(shared, writer);
    expect(writer.paths.has(representationPath(manifest.id, manifest.version, manifest.preview!.id, manifest.preview!.format))).toBe(true);
  });

  it('leaves the files of the last build alone', async () => {
    const out = join(work, 'again');
    const first = new OutputWriter(out);
    await copyPublishedFiles(data, first);
    await copyThumbnails(data, first);
    const writer = new OutputWriter(out);
    await copyPublishedFiles(data, writer);
    await copyThumbnails(data, writer);
    expect(writer.counts().files).toBeGreaterThan(10);
    expect(writer.written).toEqual([]);
  });

});
