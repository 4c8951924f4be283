/** The documents of each version, found by their place in the site data. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPath, apiPaths, oembedPath } from '@aso-registry/core/format/paths';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { versionDocuments, versionPositions } from '../../../src/site/build/site-documents.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let data: SiteData;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-site-documents-'));
  data = await loadSampleSite(join(work, 'cache'));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('versionPositions', () => {
  it('gives every version of the site once, in the order of the site data', () => {
    const positions = [...versionPositions(data)];
    expect(positions.map((p) => `${p.id}@${p.version}`)).toEqual(data.objects.flatMap((o) => o.versions.map((v) => `${v.manifest.id}@${v.manifest.version}`)));
    for (const p of positions) expect(data.objects[p.objectIndex]!.versions[p.versionIndex]!.manifest).toMatchObject({ id: p.id, version: p.version });
  });

  it("leads to each version's agent.json, API document and oEmbed document", () => {
    for (const { id, version, objectIndex, versionIndex } of versionPositions(data)) {
      const docs = versionDocuments(data, objectIndex, versionIndex);
      expect(docs.map((d) => d.path)).toEqual([agentPath(id, version), apiPaths.version(id, version), oembedPath(id, version)]);
      expect(JSON.parse(docs[1]!.body)).toMatchObject({ id, version });
    }
  });

  it("names a version's thumbnail in its oEmbed document, absolute and with its size, and no thumbnail when it has none", () => {
    const positions = [...versionPositions(data)];
    const oembed = (p: (typeof positions)[number]) => JSON.parse(versionDocuments(data, p.objectIndex, p.versionIndex)[2]!.body) as Record<string, unknown>;
    const entryOf = (p: (typeof positions)[number]) => data.objects[p.objectIndex]!.versions[p.versionIndex]!;
    const withThumbnail = positions.filter((p) => entryOf(p).thumbnail);
    const without = positions.filter((p) => !entryOf(p).thumbnail);
    expect(withThumbnail.length).toBeGreaterThan(0);
    expect(without.length).toBeGreaterThan(0);
    for (const p of withThumbnail) {
      const thumbnail = entryOf(p).thumbnail!;
      expect(oembed(p)).toMatchObject({
        type: 'rich',
        title: `${entryOf(p).manifest.name} ${p.version}`,
        thumbnail_url: `${data.registryUrl}/${thumbnail.path}`,
        thumbnail_width: thumbnail.width,
        thumbnail_height: thumbnail.height,
      });
    }
    for (const p of without) expect(Object.keys(oembed(p)).filter((k) => k.startsWith('thumbnail'))).toEqual([]);
  });
});
