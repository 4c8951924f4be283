import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyLedger } from '@aso-registry/core/log/ledger';
import { appendLedgerEntry, serialized } from '../../src/publish/append-ledger.ts';
import { allPublications, ledgerPath, publicationOf } from '../../src/registry/ledger-file.ts';
import { createFixture, type Fixture } from '../registry/fixture.ts';

const fixtures: Fixture[] = [];
async function registry(): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  return fx;
}
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.cleanup();
});

describe('appendLedgerEntry', () => {
  it('starts a ledger with every version already there, oldest first, then the new one', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'lamp', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-01-01T00:00:00Z') });
    await fx.addVersion({ id: 'chair', version: '1.0.0', editPublication: (p) => void (p.publishedAt = '2025-02-01T00:00:00Z') });
    await fx.addVersion({ id: 'chair', version: '1.1.0', editPublication: (p) => void (p.publishedAt = '2024-06-01T00:00:00Z') });
    const entry = await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', '1.1.0'));
    expect(entry).toMatchObject({ seq: 3, id: 'chair', version: '1.1.0' });
    const { entries, problems } = await verifyLedger(await readFile(ledgerPath(fx.root), 'utf8'));
    expect(problems).toEqual([]);
    expect(entries.map((e) => `${e.seq} ${e.id}@${e.version}`)).toEqual(['1 lamp@1.0.0', '2 chair@1.0.0', '3 chair@1.1.0']);
  });

  it('appends to an existing ledger and refuses a version that is in it, naming the file', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', '1.0.0'));
    await fx.addVersion({ id: 'chair', version: '1.1.0' });
    expect(await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', '1.1.0'))).toMatchObject({ seq: 2, prev: expect.stringMatching(/^sha256-/) });
    await expect(appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', '1.0.0'))).rejects.toThrow(new RegExp(`^${ledgerPath(fx.root).replace(/\./g, '\\.')}: .*chair@1\\.0\\.0`));
  });

  it('keeps the chain when many appends run at once', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'item-00', version: '1.0.0' });
    await appendLedgerEntry(fx.root, await publicationOf(fx.root, 'item-00', '1.0.0'));
    for (let i = 1; i < 12; i++) await fx.addVersion({ id: `item-${String(i).padStart(2, '0')}`, version: '1.0.0' });
    const rest = (await allPublications(fx.root)).filter((p) => p.id !== 'item-00');
    const entries = await Promise.all(rest.map((p) => appendLedgerEntry(fx.root, p)));
    expect(entries.map((e) => e.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 2));
    const verified = await verifyLedger(await readFile(ledgerPath(fx.root), 'utf8'));
    expect(verified.problems).toEqual([]);
    expect(verified.entries).toHaveLength(12);
  });

  it('refuses to append to a broken ledger, and leaves it as it was', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'chair', version: '1.0.0' });
    await fx.write('ledger.jsonl', 'broken\n');
    await expect(appendLedgerEntry(fx.root, await publicationOf(fx.root, 'chair', '1.0.0'))).rejects.toThrow(/ledger\.jsonl: /);
    expect(await readFile(ledgerPath(fx.root), 'utf8')).toBe('broken\n');
  });
});

describe('serialized', () => {
  it('runs the tasks of one path one after the other, even after a failure, and those of other paths alongside', async () => {
    const log: string[] = [];
    const task = (name: string, ms: number, fail = false) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([serialized('/a', task('a1', 30, true)), serialized('/a', task('a2', 1)), serialized('/b', task('b1', 5))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });
});
