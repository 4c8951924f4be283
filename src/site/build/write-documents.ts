/** The documents phase of a build: every version's documents and the site's index documents, through the writer. */
import pMap from 'p-map';
import type { BuildPlan } from './build-plan.ts';
import type { OutputWriter } from '../output/output-writer.ts';
import type { SiteData } from '../data/site-model.ts';
import { indexDocuments, versionDocumentPaths, versionDocuments, versionPositions } from './site-documents.ts';

/** Versions whose documents are made and written at once: memory holds those being written, not the registry's. */
const VERSIONS_AT_ONCE = 64;

/**
 * Writes every version's documents, but those the plan says are unchanged and whose files are there (kept as they
 * are), and the index documents (catalog, feeds, sitemap, API listings).
 */
export async function writeDocuments(data: SiteData, plan: Pick<BuildPlan, 'documentsUnchanged'>, writer: OutputWriter): Promise<void> {
  await pMap(
    versionPositions(data),
    async ({ id, version, objectIndex, versionIndex }) => {
      const paths = versionDocumentPaths(id, version);
      if (plan.documentsUnchanged(id, version) && (await Promise.all(paths.map((p) => writer.has(p)))).every(Boolean)) {
        for (const p of paths) writer.keep(p);
        return;
      }
      await Promise.all(versionDocuments(data, objectIndex, versionIndex).map((d) => writer.write(d.path, d.body)));
    },
    { concurrency: VERSIONS_AT_ONCE },
  );
  await Promise.all((await indexDocuments(data)).map((d) => writer.write(d.path, d.body)));
}
