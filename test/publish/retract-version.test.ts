import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRetractions } from '@aso-registry/core/log/retractions';
import { retractionsPath, retractVersion } from '../../src/publish/retract-version.ts';
import { publicationOf } from '../../src/registry/ledger-file.ts';
import { createFixture, type Fixture } from '../registry/fixture.ts';

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.cleanup();
});
async function registry(): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  await fx.addVersion({ id: 'chair', version: '1.0.0' });
  await fx.addVersion({ id: 'chair', version: '1.1.0' });
  return fx;
}

describe('retractVersion', () => {
  it("appends a line bound to the version's record hash, with the reason trimmed", async () => {
    const fx = await registry();
    const entry = await retractVersion(fx.root, { id: 'chair', version: '1.0.0', reason: '  wrong scale \n', retractedAt: '2026-03-01T00:00:00Z' });
    expect(entry).toEqual({ id: 'chair', version: '1.0.0', recordHash: (await publicationOf(fx.root, 'chair', '1.0.0')).recordHash, retractedAt: '2026-03-01T00:00:00Z', reason: 'wrong scale' });
    const { entries, problems } = parseRetractions(await readFile(retractionsPath(fx.root), 'utf8'));
    expect(problems).toEqual([]);
    expect(entries).toEqual([entry]);
  });

  it('keeps both of two retractions made at once', async () => {
    const fx = await registry();
    await Promise.all(['1.0.0', '1.1.0'].map((version) => retractVersion(fx.root, { id: 'chair', version, reason: 'recalled' })));
    const { entries, problems } = parseRetractions(await readFile(retractionsPath(fx.root), 'utf8'));
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.version).sort()).toEqual(['1.0.0', '1.1.0']);
  });

  it('stamps the time to the second when none is given', async () => {
    const fx = await registry();
    const before = Date.now();
    const entry = await retractVersion(fx.root, { id: 'chair', version: '1.1.0', reason: 'duplicate' });
    expect(entry.retractedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Date.parse(entry.retractedAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('refuses a second retraction, a missing reason and a version that is not published, changing nothing', async () => {
    const fx = await registry();
    await retractVersion(fx.root, { id: 'chair', version: '1.0.0', reason: 'wrong scale' });
    const text = await readFile(retractionsPath(fx.root), 'utf8');
    await expect(retractVersion(fx.root, { id: 'chair', version: '1.0.0', reason: 'again' })).rejects.toThrow(`${retractionsPath(fx.root)}: chair@1.0.0 is already retracted on line 1`);
    await expect(retractVersion(fx.root, { id: 'chair', version: '1.1.0', reason: '   ' })).rejects.toThrow('cannot retract chair@1.1.0: reason must say why the version is retracted');
    await expect(retractVersion(fx.root, { id: 'chair', version: '9.0.0', reason: 'x' })).rejects.toThrow('chair@9.0.0 is not a published version');
    expect(await readFile(retractionsPath(fx.root), 'utf8')).toBe(text);
  });

  it('refuses a version whose manifest no longer matches its record hash', async () => {
    const fx = await registry();
    await fx.write('objects/chair/versions/1.1.0/aso.object.json', '{}\n');
    await expect(retractVersion(fx.root, { id: 'chair', version: '1.1.0', reason: 'x' })).rejects.toThrow(/is not the hash of aso\.object\.json/);
  });
});
