/** The build stops on a broken ledger or retraction with the same lines as `npm run check`. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendToLedger, ledgerLine, verifyLedger } from '@aso-registry/core/log/ledger';
import { versionDir } from '@aso-registry/core/format/paths';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, sri, tempRegistry, writeVersion } from '../support/fixture-registry.ts';

let parent: string;
let root: string;

beforeAll(async () => {
  ({ parent, root } = await tempRegistry('aso-ledger-build-'));
  const files = [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes() }];
  let ledger = '';
  for (const id of ['first-object', 'second-object', 'third-object']) {
    await writeVersion(root, { id, version: '1.0.0', files }, DEFAULT_REGISTRY_URL);
    const pub = JSON.parse(await readFile(join(root, versionDir(id, '1.0.0'), 'publication.json'), 'utf8'));
    ledger = await appendToLedger(ledger, { publicationId: pub.publicationId, id, version: '1.0.0', recordHash: pub.recordHash, publishedAt: pub.publishedAt });
  }
  // Line 2 rewritten (its publishedAt), third-object removed, and a fourth object published without a line.
  const [a, b, c] = ledger.trimEnd().split('\n');
  const second = (await verifyLedger(ledger)).entries[1]!;
  await writeFile(join(root, 'ledger.jsonl'), `${a}\n${ledgerLine({ ...second, publishedAt: '2020-01-01T00:00:00Z' })}\n${c}\n`);
  expect(b).not.toBe(ledgerLine({ ...second, publishedAt: '2020-01-01T00:00:00Z' }));
  await rm(join(root, 'objects', 'third-object'), { recursive: true });
  await writeVersion(root, { id: 'fourth-object', version: '1.0.0', files }, DEFAULT_REGISTRY_URL);
  await writeFile(
    join(root, 'retractions.jsonl'),
    `{"id":"first-object","version":"1.0.0","recordHash":"${sri(Buffer.from('x'))}","retractedAt":"2026-02-01T00:00:00Z","reason":"Wrong."}\n`,
  );
});

afterAll(() => rm(parent, { recursive: true, force: true }));

it('fails naming the ledger line, the version without a line, the line without a version and the retraction', async () => {
  const result = await buildSite({ outDir: join(parent, 'dist'), registryDir: root, cacheDir: join(parent, 'cache') });
  expect(result.code).not.toBe(0);
  const output = result.stdout + result.stderr;
  expect(output).toContain('registry/ledger.jsonl: line 2: (second-object@1.0.0) publishedAt 2020-01-01T00:00:00Z is not the one in registry/objects/second-object/versions/1.0.0/publication.json');
  expect(output).toMatch(/registry\/ledger\.jsonl: line 3: \(third-object@1\.0\.0\) prev is sha256-\S+, expected sha256-\S+ \(the hash of line 2\)/);
  expect(output).toContain('registry/ledger.jsonl: line 3: (third-object@1.0.0) has no version folder (registry/objects/third-object/versions/1.0.0 is missing)');
  expect(output).toContain('registry/ledger.jsonl: file: fourth-object@1.0.0 has no line');
  expect(output).toContain('registry/retractions.jsonl: line 1: (first-object@1.0.0) recordHash');
});
