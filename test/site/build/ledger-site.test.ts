import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerFrom } from '@aso-registry/core/log/ledger';
import { appendRetraction } from '@aso-registry/core/log/retractions';
import { allPublications } from '../../../src/registry/ledger-file.ts';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { copyLedgerFiles, ledgerCheckpointDocument } from '../../../src/site/build/ledger-site.ts';
import { createFixture, sri, type Fixture } from '../../registry/fixture.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});
async function setup(): Promise<{ fx: Fixture; out: string }> {
  const fx = await createFixture();
  const out = await mkdtemp(join(tmpdir(), 'aso-ledger-site-'));
  cleanup.push(fx.cleanup, () => rm(out, { recursive: true, force: true }));
  await fx.addVersion({ id: 'chair', version: '1.0.0' });
  return { fx, out };
}

describe('copyLedgerFiles', () => {
  it('copies the ledger and the retractions byte for byte, only those that exist', async () => {
    const { fx, out } = await setup();
    expect(await copyLedgerFiles(fx.root, new OutputWriter(out))).toEqual([]);
    const ledger = await ledgerFrom(await allPublications(fx.root));
    await fx.write('ledger.jsonl', ledger);
    expect(await copyLedgerFiles(fx.root, new OutputWriter(out))).toEqual(['ledger.jsonl']);
    const pub = (await allPublications(fx.root))[0]!;
    await fx.write('retractions.jsonl', appendRetraction('', { id: 'chair', version: '1.0.0', recordHash: pub.recordHash, retractedAt: '2026-01-01T00:00:00Z', reason: 'x' }));
    expect(await copyLedgerFiles(fx.root, new OutputWriter(out))).toEqual(['ledger.jsonl', 'retractions.jsonl']);
    expect((await readdir(out)).sort()).toEqual(['ledger.jsonl', 'retractions.jsonl']);
    expect(await readFile(join(out, 'ledger.jsonl'), 'utf8')).toBe(ledger);
  });
});

describe('ledgerCheckpointDocument', () => {
  it('describes the ledger and says where the retractions are, or that there are none', async () => {
    const { fx } = await setup();
    expect(await ledgerCheckpointDocument(fx.root, 'https://registry.test')).toMatchObject({ size: 0, head: null, url: null, retractionsUrl: null });
    const ledger = await ledgerFrom(await allPublications(fx.root));
    await fx.write('ledger.jsonl', ledger);
    await fx.write('retractions.jsonl', '');
    expect(await ledgerCheckpointDocument(fx.root, 'https://registry.test')).toMatchObject({
      schema: 'aso/api/v1/ledger',
      size: 1,
      head: sri(new TextEncoder().encode(ledger.trimEnd())),
      url: 'https://registry.test/ledger.jsonl',
      retractionsUrl: 'https://registry.test/retractions.jsonl',
    });
  });

  it('takes the checkpoint the check verified as it is, without reading the ledger again', async () => {
    const { fx } = await setup();
    const ledger = await ledgerFrom(await allPublications(fx.root));
    await fx.write('ledger.jsonl', ledger);
    const checked = await ledgerCheckpointDocument(fx.root, 'https://registry.test');
    // The ledger changed after the check: the document still says what the check verified (the site is of that check).
    await fx.write('ledger.jsonl', 'x\n');
    expect(await ledgerCheckpointDocument(fx.root, 'https://registry.test', { size: checked.size, head: checked.head })).toEqual(checked);
    expect(await ledgerCheckpointDocument(fx.root, 'https://registry.test', null)).toMatchObject({ size: 0, head: null, url: null });
  });

  it('refuses a broken ledger', async () => {
    const { fx } = await setup();
    await fx.write('ledger.jsonl', 'x\n');
    await expect(ledgerCheckpointDocument(fx.root, 'https://registry.test')).rejects.toThrow(/ledger\.jsonl: line 1: /);
  });
});
