import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerFrom } from '@aso-registry/core/log/ledger';
import { allPublications, ledgerPath, publicationOf, readLedgerCheckpoint } from '../../src/registry/ledger-file.ts';
import { createFixture, sri, type Fixture } from './fixture.ts';

const fixtures: Fixture[] = [];
async function fixture(): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  return fx;
}
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.cleanup();
});

describe('publicationOf', () => {
  it("reads a version's publication after checking its record hash", async () => {
    const fx = await fixture();
    const manifest = await fx.addVersion({ id: 'chair', version: '1.0.0' });
    const pub = await publicationOf(fx.root, 'chair', '1.0.0');
    expect(pub).toEqual({
      publicationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      id: 'chair',
      version: '1.0.0',
      recordHash: sri(new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`)),
      publishedAt: '2025-01-02T00:00:00Z',
    });
  });

  it('names what is missing or wrong', async () => {
    const fx = await fixture();
    const dir = (v: string) => join(fx.root, 'objects', 'chair', 'versions', v);
    await expect(publicationOf(fx.root, 'chair', '0.0.1')).rejects.toThrow(`${join(dir('0.0.1'), 'publication.json')}: is missing; chair@0.0.1 is not a published version`);
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await fx.write('objects/chair/versions/1.0.0/aso.object.json', '{"edited": true}\n');
    await expect(publicationOf(fx.root, 'chair', '1.0.0')).rejects.toThrow(/publication\.json: recordHash sha256-\S+ is not the hash of aso\.object\.json \(sha256-\S+\)$/);
    await fx.addVersion({ id: 'chair', version: '1.1.0' });
    await fx.write('objects/chair/versions/1.1.0/publication.json', '{not json');
    await expect(publicationOf(fx.root, 'chair', '1.1.0')).rejects.toThrow(`${join(dir('1.1.0'), 'publication.json')}: is not valid JSON: `);
    await fx.addVersion({ id: 'chair', version: '1.2.0', editPublication: (p) => void Object.assign(p, { publishedAt: 5 }) });
    await expect(publicationOf(fx.root, 'chair', '1.2.0')).rejects.toThrow(`${join(dir('1.2.0'), 'publication.json')}: publishedAt must be a string`);
    await mkdir(dir('2.0.0'), { recursive: true });
    await writeFile(join(dir('2.0.0'), 'publication.json'), '{}');
    await expect(publicationOf(fx.root, 'chair', '2.0.0')).rejects.toThrow(`${join(dir('2.0.0'), 'aso.object.json')}: is missing`);
  });
});

describe('allPublications', () => {
  it('lists every version, oldest publication first, ties by <id>@<version>', async () => {
    const fx = await fixture();
    const at = (t: string) => (p: { publishedAt: string }) => void (p.publishedAt = t);
    await fx.addVersion({ id: 'table', version: '1.0.0', editPublication: at('2025-01-01T00:00:00Z') });
    await fx.addVersion({ id: 'bench', version: '1.0.0', editPublication: at('2025-01-01T01:00:00+02:00') });
    await fx.addVersion({ id: 'oak', version: '1.0.0', editPublication: at('2025-02-01T00:00:00Z') });
    await fx.addVersion({ id: 'oak-chair', version: '1.0.0', editPublication: at('2025-02-01T00:00:00Z') });
    // bench was published first (23:00 the day before, in UTC); oak-chair@ sorts before oak@ ("-" before "@").
    expect((await allPublications(fx.root)).map((p) => `${p.id}@${p.version}`)).toEqual(['bench@1.0.0', 'table@1.0.0', 'oak-chair@1.0.0', 'oak@1.0.0']);
  });

  it('is empty for a registry without objects', async () => {
    const fx = await fixture();
    expect(await allPublications(join(fx.repo, 'nowhere'))).toEqual([]);
  });
});

describe('readLedgerCheckpoint', () => {
  it('gives size 0 and no head without a ledger, and the size and head of a valid one', async () => {
    const fx = await fixture();
    expect(await readLedgerCheckpoint(fx.root)).toEqual({ size: 0, head: null });
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await fx.addVersion({ id: 'lamp', version: '1.0.0' });
    const text = await ledgerFrom(await allPublications(fx.root));
    await writeFile(ledgerPath(fx.root), text);
    const lines = text.trimEnd().split('\n');
    expect(await readLedgerCheckpoint(fx.root)).toEqual({ size: 2, head: sri(new TextEncoder().encode(lines[1]!)) });
  });

  it('refuses a broken ledger, naming the file and the line', async () => {
    const fx = await fixture();
    await fx.write('ledger.jsonl', 'not json\n');
    await expect(readLedgerCheckpoint(fx.root)).rejects.toThrow(new RegExp(`^${ledgerPath(fx.root).replace(/[.]/g, '\\.')}: line 1: is not JSON`));
  });
});
