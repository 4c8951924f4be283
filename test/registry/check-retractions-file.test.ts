import { afterEach, describe, expect, it } from 'vitest';
import { retractionLine, type RetractionEntry } from '@aso-registry/core/log/retractions';
import type { KnownVersion } from '../../src/registry/check-ledger-file.ts';
import { checkRetractionsFile } from '../../src/registry/check-retractions-file.ts';
import { createFixture, type Fixture } from './fixture.ts';

const HASH = (c: string) => `sha256-${c.repeat(43)}=`;
const known = (id: string, version: string, publishedAt = '2026-01-02T00:00:00Z'): KnownVersion => ({
  id,
  version,
  publication: { publicationId: '00000000-0000-4000-8000-000000000001', publishedAt, publisher: 'test', recordHash: HASH(id[0]!.toUpperCase()) },
});
const retraction = (id: string, version: string, over: Partial<RetractionEntry> = {}): RetractionEntry => ({
  id,
  version,
  recordHash: HASH(id[0]!.toUpperCase()),
  retractedAt: '2026-03-01T00:00:00Z',
  reason: 'wrong scale',
  ...over,
});
const file = (...entries: RetractionEntry[]) => entries.map((e) => `${retractionLine(e)}\n`).join('');

describe('checkRetractionsFile', () => {
  const fixtures: Fixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.cleanup();
  });
  async function check(text: string | null, versions: KnownVersion[]) {
    const fx = await createFixture();
    fixtures.push(fx);
    if (text !== null) await fx.write('retractions.jsonl', text);
    return checkRetractionsFile(fx.root, versions, (p) => p.slice(fx.repo.length + 1));
  }

  it('gives the retracted versions by <id>@<version> with reason and time', async () => {
    const { problems, retracted } = await check(file(retraction('chair', '1.0.0')), [known('chair', '1.0.0'), known('lamp', '1.0.0')]);
    expect(problems).toEqual([]);
    expect([...retracted]).toEqual([['chair@1.0.0', { reason: 'wrong scale', retractedAt: '2026-03-01T00:00:00Z' }]]);
  });

  it('retracts nothing without a file', async () => {
    const { problems, retracted } = await check(null, [known('chair', '1.0.0')]);
    expect(problems).toEqual([]);
    expect(retracted.size).toBe(0);
  });

  it('refuses a retraction of a version that is not there, of other bytes, or before publication', async () => {
    const text = file(retraction('lamp', '9.0.0'), retraction('chair', '1.0.0', { recordHash: HASH('X') }), retraction('table', '1.0.0', { retractedAt: '2026-01-01T03:00:00+02:00' }));
    const { problems, retracted } = await check(text, [known('chair', '1.0.0'), known('table', '1.0.0', '2026-01-01T02:00:00Z')]);
    expect(problems).toEqual([
      { file: 'registry/retractions.jsonl', pointer: 'line 1', message: '(lamp@9.0.0) names a version that is not in the registry (registry/objects/lamp/versions/9.0.0 is missing)' },
      { file: 'registry/retractions.jsonl', pointer: 'line 2', message: `(chair@1.0.0) recordHash ${HASH('X')} is not the record hash of chair@1.0.0 (${HASH('C')})` },
      { file: 'registry/retractions.jsonl', pointer: 'line 3', message: '(table@1.0.0) retractedAt 2026-01-01T03:00:00+02:00 is before the version was published (2026-01-01T02:00:00Z)' },
    ]);
    expect(retracted.size).toBe(0);
  });

  it('keeps the first of two retractions of a version and reports the second', async () => {
    const { problems, retracted } = await check(file(retraction('chair', '1.0.0'), retraction('chair', '1.0.0', { reason: 'again' })), [known('chair', '1.0.0')]);
    expect(problems).toEqual([{ file: 'registry/retractions.jsonl', pointer: 'line 2', message: '(chair@1.0.0) is already retracted on line 1' }]);
    expect(retracted.get('chair@1.0.0')?.reason).toBe('wrong scale');
  });

  it('reports a line that is not a retraction', async () => {
    const { problems } = await check('{"id":"chair"}\n', [known('chair', '1.0.0')]);
    expect(problems).toEqual([{ file: 'registry/retractions.jsonl', pointer: 'line 1', message: 'version must be a string' }]);
  });
});
