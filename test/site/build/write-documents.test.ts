/** The documents phase: every version's documents written, or kept when the plan says they are unchanged and their files are there. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionDocumentPaths } from '../../../src/site/build/site-documents.ts';
import { writeDocuments } from '../../../src/site/build/write-documents.ts';
import type { SiteData } from '../../../src/site/data/site-model.ts';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { loadSampleSite } from '../../support/sample-site.ts';

let work: string;
let data: SiteData;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-write-documents-'));
  data = await loadSampleSite(join(work, 'cache'));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

const versions = (): Array<[string, string]> => data.objects.flatMap((o) => o.versions.map((v) => [v.manifest.id, v.manifest.version] as [string, string]));

describe('writeDocuments', () => {
  it("writes every version's documents and the index documents, then keeps those the plan calls unchanged", async () => {
    const out = join(work, 'site');
    const first = new OutputWriter(out);
    await writeDocuments(data, { documentsUnchanged: () => false }, first);
    for (const [id, version] of versions()) for (const path of versionDocumentPaths(id, version)) expect(first.paths.has(path), path).toBe(true);
    expect(first.paths.has('api/v1/index.json')).toBe(true);
    const [id, version] = versions()[0]!;
    const agent = versionDocumentPaths(id, version)[0]!;
    expect(JSON.parse(await readFile(join(out, agent), 'utf8'))).toMatchObject({ id, version });

    // Unchanged: kept as they are, nothing written again; the index documents are compared and left alone too.
    const again = new OutputWriter(out);
    await writeDocuments(data, { documentsUnchanged: () => true }, again);
    expect(again.written).toEqual([]);
    expect([...again.paths].sort()).toEqual([...first.paths].sort());
  });

  it('writes the documents the plan calls unchanged when their files are not there', async () => {
    const writer = new OutputWriter(join(work, 'empty'));
    await writeDocuments(data, { documentsUnchanged: () => true }, writer);
    const [id, version] = versions()[0]!;
    for (const path of versionDocumentPaths(id, version)) expect(writer.written).toContain(path);
  });
});
