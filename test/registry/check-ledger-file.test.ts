import { afterEach, describe, expect, it } from 'vitest';
import { ledgerFrom, type LedgerPublication } from '@aso-registry/core/log/ledger';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { checkLedgerFile, type KnownVersion } from '../../src/registry/check-ledger-file.ts';
import { createFixture, type Fixture } from './fixture.ts';

const HASH = (c: string) => `sha256-${c.repeat(43)}=`;
const publication = (id: string, version: string, over: Partial<PublicationRecord> = {}): PublicationRecord => ({
  publicationId: `00000000-0000-4000-8000-${String(id.length * 1000 + version.length).padStart(12, '0')}`,
  publishedAt: '2026-01-02T00:00:00Z',
  publisher: 'test',
  recordHash: HASH(id[0]!.toUpperCase()),
  ...over,
});
const known = (id: string, version: string, over: Partial<PublicationRecord> = {}): KnownVersion => ({ id, version, publication: publication(id, version, over) });
const line = (v: KnownVersion): LedgerPublication => ({ id: v.id, version: v.version, ...v.publication! });

describe('checkLedgerFile', () => {
  const fixtures: Fixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.cleanup();
  });
  async function withLedger(text: string | null): Promise<Fixture> {
    const fx = await createFixture();
    fixtures.push(fx);
    if (text !== null) await fx.write('ledger.jsonl', text);
    return fx;
  }
  const check = (fx: Fixture, versions: KnownVersion[]) => checkLedgerFile(fx.root, versions, (p) => p.slice(fx.repo.length + 1));

  it('accepts a ledger with one matching line per version, and gives its size and head', async () => {
    const versions = [known('chair', '1.0.0'), known('lamp', '2.0.0')];
    const fx = await withLedger(await ledgerFrom(versions.map(line)));
    const { problems, ledger } = await check(fx, versions);
    expect(problems).toEqual([]);
    expect(ledger).toMatchObject({ size: 2, head: expect.stringMatching(/^sha256-/) });
    expect(ledger!.entries.map((e) => `${e.id}@${e.version}`)).toEqual(['chair@1.0.0', 'lamp@2.0.0']);
  });

  it('has nothing to say without a ledger file', async () => {
    expect(await check(await withLedger(null), [known('chair', '1.0.0')])).toEqual({ problems: [], ledger: null });
  });

  it('names a version without a line, with the command that appends it', async () => {
    const fx = await withLedger(await ledgerFrom([line(known('chair', '1.0.0'))]));
    const { problems } = await check(fx, [known('chair', '1.0.0'), known('lamp', '2.0.0')]);
    expect(problems).toEqual([
      {
        file: 'registry/ledger.jsonl',
        message: 'lamp@2.0.0 has no line, but registry/objects/lamp/versions/2.0.0/publication.json says it is published; append one with: npx tsx scripts/ledger.ts append lamp@2.0.0',
      },
    ]);
  });

  it('names each field of a line that disagrees with the publication record', async () => {
    const v = known('chair', '1.0.0');
    const fx = await withLedger(await ledgerFrom([line(v)]));
    const changed = known('chair', '1.0.0', { recordHash: HASH('Z'), publicationId: '11111111-1111-4111-8111-111111111111', publishedAt: '2026-02-01T00:00:00Z' });
    const pubFile = 'registry/objects/chair/versions/1.0.0/publication.json';
    expect((await check(fx, [changed])).problems).toEqual([
      { file: 'registry/ledger.jsonl', pointer: 'line 1', message: `(chair@1.0.0) recordHash ${HASH('C')} is not the record hash in ${pubFile} (${HASH('Z')}): the published manifest was changed` },
      { file: 'registry/ledger.jsonl', pointer: 'line 1', message: `(chair@1.0.0) publicationId ${v.publication!.publicationId} is not the one in ${pubFile} (11111111-1111-4111-8111-111111111111)` },
      { file: 'registry/ledger.jsonl', pointer: 'line 1', message: `(chair@1.0.0) publishedAt 2026-01-02T00:00:00Z is not the one in ${pubFile} (2026-02-01T00:00:00Z)` },
    ]);
  });

  it('does not compare a version whose publication record is broken (that is its own problem)', async () => {
    const fx = await withLedger(await ledgerFrom([line(known('chair', '1.0.0'))]));
    expect((await check(fx, [{ id: 'chair', version: '1.0.0' }])).problems).toEqual([]);
  });

  it('names a line whose version folder is gone', async () => {
    const fx = await withLedger(await ledgerFrom([line(known('chair', '1.0.0')), line(known('lamp', '2.0.0'))]));
    expect((await check(fx, [known('chair', '1.0.0')])).problems).toEqual([
      {
        file: 'registry/ledger.jsonl',
        pointer: 'line 2',
        message: '(lamp@2.0.0) has no version folder (registry/objects/lamp/versions/2.0.0 is missing): a published version is never removed; retract it in retractions.jsonl instead',
      },
    ]);
  });

  it('reports the problems of the chain itself by line', async () => {
    const text = await ledgerFrom([line(known('chair', '1.0.0')), line(known('lamp', '2.0.0'))]);
    const [first, second] = text.trimEnd().split('\n');
    const fx = await withLedger(`${second}\n${first}\n`);
    const { problems } = await check(fx, [known('chair', '1.0.0'), known('lamp', '2.0.0')]);
    expect(problems.map((p) => p.pointer)).toContain('line 1');
    expect(problems.map((p) => p.pointer)).toContain('line 2');
    expect(problems.some((p) => /seq is 2, expected 1/.test(p.message))).toBe(true);
  });
});
