/** getObject can check each version against the whole served ledger: a ledger that omits or alters a record fails it. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, LedgerError } from '@aso-registry/sdk';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from './support/rejection.ts';

let server: StaticServer;
let ledger: string;

beforeAll(async () => {
  const dist = siteDir();
  ledger = await readFile(join(dist, 'ledger.jsonl'), 'utf8');
  server = await serveStatic(dist);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => server.setOverride(undefined));

/** Serves `text` as /ledger.jsonl and leaves the checkpoint as published. */
function serveLedger(text: string): void {
  server.setOverride((path) => (path === '/ledger.jsonl' ? { body: text, type: 'application/jsonl' } : undefined));
}

it('verifies every version against the published ledger when asked to, and by default reads it only without a log proof', async () => {
  const client = createClient({ origin: server.origin });
  const lines = ledger.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; version: string });
  expect(lines.length).toBeGreaterThan(0);
  for (const { id, version } of lines) {
    const got = await client.getObject(id, version, { ledger: 'require' });
    expect(got.ledgerVerified, `${id}@${version}`).toBe(true);
  }
  const { id, version } = lines[0]!;
  const served = await client.getObject(id, version);
  expect(served.logVerified?.leafIndex).toBe(0);
  expect(served.ledgerVerified).toBe(false);
  expect((await client.getObject(id, version, { log: 'skip' })).ledgerVerified).toBe(true);
});

it('fails when the served ledger omits the record', async () => {
  const lines = ledger.trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!) as { id: string; version: string };
  serveLedger(`${lines.slice(0, -1).join('\n')}\n`);
  const error = await rejection(createClient({ origin: server.origin }).getObject(last.id, last.version, { ledger: 'require' }));
  expect(error).toBeInstanceOf(LedgerError);
  expect((error as Error).message).toMatch(/ledger check failed: the ledger has \d+ lines but the checkpoint says \d+/);
});

it('fails when the served ledger alters the record hash', async () => {
  const lines = ledger.trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!) as { id: string; version: string; recordHash: string };
  const forged = `sha256-${'A'.repeat(43)}=`;
  lines[lines.length - 1] = lines.at(-1)!.replace(last.recordHash, forged);
  serveLedger(`${lines.join('\n')}\n`);
  const error = await rejection(createClient({ origin: server.origin }).getObject(last.id, last.version, { ledger: 'require' }));
  expect(error).toBeInstanceOf(LedgerError);
  expect((error as Error).message).toContain(`has record hash ${forged}, but the version's record hash is ${last.recordHash}`);
});

it('can skip the check, and require it', async () => {
  const lines = ledger.trimEnd().split('\n');
  const first = JSON.parse(lines[0]!) as { id: string; version: string };
  serveLedger('not a ledger\n');
  const client = createClient({ origin: server.origin });
  expect((await client.getObject(first.id, first.version, { ledger: 'skip' })).ledgerVerified).toBe(false);
  expect(await rejection(client.getObject(first.id, first.version, { ledger: 'require' }))).toBeInstanceOf(LedgerError);
  server.setOverride((path) => (path === '/api/v1/ledger.json' ? { status: 404, body: 'not found' } : undefined));
  expect((await client.getObject(first.id, first.version, { log: 'skip' })).ledgerVerified).toBe(false);
  expect(await rejection(client.getObject(first.id, first.version, { ledger: 'require' }))).toBeInstanceOf(LedgerError);
});

it('skips retracted versions for latest and ranges, but still reads them by exact version', async () => {
  const retractions = (await readFile(join(siteDir(), 'retractions.jsonl'), 'utf8')).trimEnd().split('\n');
  const { id, version } = JSON.parse(retractions[0]!) as { id: string; version: string };
  const client = createClient({ origin: server.origin });
  const exact = await client.getObject(id, version);
  expect(exact.retracted?.reason).toBeTruthy();
  const latest = await client.getObject(id, 'latest');
  expect(latest.version).not.toBe(version);
  expect((await client.getObject(id, `<=${version}`).catch((e: Error) => e)) instanceof Error).toBe(true);
});
