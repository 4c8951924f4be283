/** The built sample site: the ledger and its checkpoint, retracted versions on every read path, and a client's ledger check over HTTP. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDocument, ApiIndex, ApiLedgerCheckpoint, ApiObject, ApiVersion } from '@aso-registry/core/documents/api-types';
import { extendsCheckpoint, ledgerFrom, ledgerRecordProblems, verifyLedger } from '@aso-registry/core/log/ledger';
import { formatDate } from '@aso-registry/core/documents/format-date';
import { toOrigin } from '@aso-registry/core/format/paths';
import { latestNotRetracted } from '@aso-registry/core/format/latest';
import { parseRetractions, type RetractionEntry } from '@aso-registry/core/log/retractions';
import { repoRoot } from '../support/build-site.ts';
import { sri } from '../support/fixture-registry.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

const ORIGIN = 'https://registry.example.org';

let dist: string;
let ledgerText: string;
let retractions: RetractionEntry[];
let server: StaticServer;
const json = async <T>(path: string) => JSON.parse(await readFile(join(dist, path), 'utf8')) as T;

beforeAll(async () => {
  dist = siteDir();
  ledgerText = await readFile(join(repoRoot, 'registry', 'ledger.jsonl'), 'utf8');
  retractions = parseRetractions(await readFile(join(repoRoot, 'registry', 'retractions.jsonl'), 'utf8')).entries;
  server = await serveStatic(dist);
});

afterAll(() => server?.close());

describe('the ledger of the sample site', () => {
  it('is published byte for byte at /ledger.jsonl, with the retractions at /retractions.jsonl', async () => {
    expect((await readFile(join(dist, 'ledger.jsonl'))).equals(await readFile(join(repoRoot, 'registry', 'ledger.jsonl')))).toBe(true);
    expect((await readFile(join(dist, 'retractions.jsonl'))).equals(await readFile(join(repoRoot, 'registry', 'retractions.jsonl')))).toBe(true);
  });

  it('has a checkpoint in /api/v1/ledger.json: size, the hash of the last line, and where the ledger is', async () => {
    const checkpoint = await json<ApiLedgerCheckpoint>('api/v1/ledger.json');
    const lines = ledgerText.trimEnd().split('\n');
    expect(checkpoint).toMatchObject({
      schema: 'aso/api/v1/ledger',
      size: lines.length,
      head: sri(Buffer.from(lines.at(-1)!, 'utf8')),
      url: `${ORIGIN}/ledger.jsonl`,
      retractionsUrl: `${ORIGIN}/retractions.jsonl`,
    });
    expect(checkpoint.verification).toMatch(/head/);
    expect((await json<ApiIndex>('api/v1/index.json')).ledger).toBe(`${ORIGIN}/api/v1/ledger.json`);
  });

  it('holds exactly one line for every published version, with its record hash', async () => {
    const checkpoint = await json<ApiLedgerCheckpoint>('api/v1/ledger.json');
    const index = await json<ApiIndex>('api/v1/index.json');
    const { entries } = await verifyLedger(ledgerText);
    expect(entries.length).toBe(index.counts.versions);
    for (const e of entries) {
      const doc = await json<ApiVersion>(`api/v1/objects/${e.id}/versions/${e.version}.json`);
      const record = { id: e.id, version: e.version, recordHash: doc.publication.recordHash, publicationId: doc.publication.publicationId };
      expect(await ledgerRecordProblems(ledgerText, checkpoint, record), `${e.id}@${e.version}`).toEqual([]);
    }
  });
});

describe('a retracted version', () => {
  it('exists in the sample, and is not the only version of its object', async () => {
    expect(retractions.length).toBeGreaterThan(0);
    for (const r of retractions) expect((await json<ApiObject>(`api/v1/objects/${r.id}.json`)).versions.length).toBeGreaterThan(1);
  });

  it('stays readable and verifiable: its manifest is still published and hashes to the record hash', async () => {
    for (const r of retractions) {
      const manifest = await readFile(join(dist, 'objects', r.id, 'versions', r.version, 'aso.object.json'));
      expect(sri(manifest)).toBe(r.recordHash);
    }
  });

  it('says so, and why, on its record page near the title', async () => {
    for (const r of retractions) {
      const html = await readFile(join(dist, 'objects', r.id, 'versions', r.version, 'index.html'), 'utf8');
      const notice = /<p class="retracted"[^>]*>([\s\S]*?)<\/p>/.exec(html);
      expect(notice, `${r.id}@${r.version}`).not.toBeNull();
      const text = notice![1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
      expect(text).toContain(`Retracted on ${formatDate(r.retractedAt)}: ${r.reason}`);
      expect(notice![1]).toMatch(new RegExp(`<time datetime="${r.retractedAt}"[^>]*>${formatDate(r.retractedAt)}</time>`));
      expect(html.indexOf('<p class="retracted"')).toBeGreaterThan(html.indexOf('<h1'));
      expect(html.indexOf('<p class="retracted"')).toBeLessThan(html.indexOf('id="record-h"'));
    }
  });

  it('says so in agent.json and in the API, and latest skips it', async () => {
    for (const r of retractions) {
      const retracted = { reason: r.reason, retractedAt: r.retractedAt };
      const agent = await json<AgentDocument>(`objects/${r.id}/versions/${r.version}/agent.json`);
      const doc = await json<ApiVersion>(`api/v1/objects/${r.id}/versions/${r.version}.json`);
      const object = await json<ApiObject>(`api/v1/objects/${r.id}.json`);
      expect(agent.retracted).toEqual(retracted);
      expect(doc.retracted).toEqual(retracted);
      expect(object.versions.find((v) => v.version === r.version)!.retracted).toEqual(retracted);
      const expected = latestNotRetracted(
        object.versions.map((v) => v.version),
        (v) => retractions.some((x) => x.id === r.id && x.version === v),
      );
      expect(object.latest).toBe(expected);
      expect(object.latest).not.toBe(r.version);
      expect(agent.latestVersion).toBe(expected);
    }
  });

  it('is the only kind of version that says so', async () => {
    const { entries } = await verifyLedger(ledgerText);
    for (const e of entries.filter((e) => !retractions.some((r) => r.id === e.id && r.version === e.version))) {
      expect((await json<ApiVersion>(`api/v1/objects/${e.id}/versions/${e.version}.json`)).retracted).toBeNull();
      expect((await json<AgentDocument>(`objects/${e.id}/versions/${e.version}/agent.json`)).retracted).toBeNull();
      expect(await readFile(join(dist, 'objects', e.id, 'versions', e.version, 'index.html'), 'utf8')).not.toContain('<p class="retracted"');
    }
  });
});

describe('a client checking a version against the served ledger', () => {
  /** What a client does: read the checkpoint, the version document and the ledger over HTTP, then check. */
  async function ledgerCheck(id: string, version: string): Promise<string[]> {
    const get = async (url: string) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return res;
    };
    const checkpoint = (await (await get(`${server.origin}/api/v1/ledger.json`)).json()) as ApiLedgerCheckpoint;
    const doc = (await (await get(`${server.origin}/api/v1/objects/${id}/versions/${version}.json`)).json()) as ApiVersion;
    const text = await (await get(toOrigin(checkpoint.url!, ORIGIN, server.origin))).text();
    return ledgerRecordProblems(text, checkpoint, { id, version, recordHash: doc.publication.recordHash, publicationId: doc.publication.publicationId });
  }
  const target = async () => (await verifyLedger(ledgerText)).entries[3]!;

  it('passes on the honest site', async () => {
    server.setOverride(undefined);
    const e = await target();
    expect(await ledgerCheck(e.id, e.version)).toEqual([]);
  });

  it('fails when the served ledger omits the record', async () => {
    const e = await target();
    const lines = ledgerText.trimEnd().split('\n');
    server.setOverride((path) => (path === '/ledger.jsonl' ? { body: `${lines.filter((_, i) => i !== 3).join('\n')}\n` } : undefined));
    try {
      const found = await ledgerCheck(e.id, e.version);
      expect(found).toContain(`${e.id}@${e.version} is not in the ledger`);
      expect(found).toContain(`the ledger has ${lines.length - 1} lines but the checkpoint says ${lines.length}`);
    } finally {
      server.setOverride(undefined);
    }
  });

  it('fails when the served ledger alters the record', async () => {
    const e = await target();
    const other = sri(Buffer.from('other bytes'));
    server.setOverride((path) => (path === '/ledger.jsonl' ? { body: ledgerText.replace(e.recordHash, other) } : undefined));
    try {
      const found = await ledgerCheck(e.id, e.version);
      expect(found).toContain(`line 4: ${e.id}@${e.version} has record hash ${other}, but the version's record hash is ${e.recordHash}`);
      expect(found.some((m) => m.startsWith('line 5: ') && m.includes('prev is'))).toBe(true);
    } finally {
      server.setOverride(undefined);
    }
  });

  it('fails when the ledger was rewritten consistently, against the checkpoint it served before', async () => {
    const e = await target();
    const before = (await (await fetch(`${server.origin}/api/v1/ledger.json`)).json()) as ApiLedgerCheckpoint;
    const { entries } = await verifyLedger(ledgerText);
    const rewritten = await ledgerFrom(entries.map(({ seq: _s, prev: _p, ...x }) => (x.recordHash === e.recordHash ? { ...x, recordHash: sri(Buffer.from('x')) } : x)));
    expect(await extendsCheckpoint(ledgerText, before)).toBe(true);
    expect(await extendsCheckpoint(rewritten, before)).toBe(false);
    expect(await ledgerRecordProblems(rewritten, before, e)).toContainEqual(expect.stringMatching(/^the ledger's head is sha256-\S+ but the checkpoint says /));
  });
});
