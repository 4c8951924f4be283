/**
 * Runs in the page (bundled with the SDK by esbuild for the browser): lists, gets and verifies every
 * version of the site it is served from, and leaves the report on `window.sdkReport`.
 */
import { createClient, NotFoundError, type IntegrityTarget } from '@aso-registry/sdk';

/** What the page reports back to the test. */
export interface PageReport {
  hasProcess: boolean;
  objects: number;
  versions: Array<{
    key: string;
    recordHash: string;
    manifestMatches: boolean;
    checks: Array<{ id: string; ok: boolean; url: string; complete: boolean }>;
  }>;
  latest: string;
  wrongHash: { ok: boolean; expected: string; actual: string };
  notFound: { isNotFound: boolean; name: string; code: string };
}

async function run(): Promise<PageReport> {
  const client = createClient({ origin: location.origin });
  const objects = await client.listObjects();
  const versions: PageReport['versions'] = [];
  let first: IntegrityTarget | undefined;
  for (const object of objects) {
    for (const summary of await client.listVersions(object.id)) {
      const got = await client.getObject(object.id, summary.version);
      const published: unknown = await (await fetch(await client.resolveUrl(got.manifestUrl))).json();
      const checks: PageReport['versions'][number]['checks'] = [];
      for (const rep of got.representations) {
        const result = await client.checkIntegrity(rep);
        checks.push({ id: rep.id, ok: result.ok, url: result.url, complete: result.complete });
        first ??= rep;
      }
      versions.push({
        key: `${got.id}@${got.version}`,
        recordHash: got.publication.recordHash,
        manifestMatches: JSON.stringify(published) === JSON.stringify(got.manifest),
        checks,
      });
    }
  }
  const wrong = await client.checkIntegrity({ ...first!, hash: `sha256-${'A'.repeat(43)}=` });
  const missing = await client.getObject(objects[0]!.id, '999.0.0').then(
    () => new Error('999.0.0 was found'),
    (error: Error & { code?: string }) => error,
  );
  return {
    hasProcess: typeof (globalThis as { process?: unknown }).process !== 'undefined',
    objects: objects.length,
    versions,
    latest: (await client.getObject(objects[0]!.id, 'latest')).version,
    wrongHash: { ok: wrong.ok, expected: wrong.hash.expected, actual: wrong.hash.actual },
    notFound: { isNotFound: missing instanceof NotFoundError, name: missing.name, code: (missing as { code?: string }).code ?? '' },
  };
}

(window as unknown as { sdkReport: Promise<PageReport | { error: string }> }).sdkReport = run().catch((error: Error) => ({
  error: `${error.name}: ${error.message}`,
}));
