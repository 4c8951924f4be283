/**
 * `npm run log -- verify-site` against tampered copies of a built site whose checkpoint is signed: published bytes
 * are checked against the manifest the log vouches for (not against what the API document or agent.json say), and
 * `/ledger.jsonl` must be exactly the log's entries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runLog } from '../../scripts/log.ts';
import type { AgentDocument, ApiLedgerCheckpoint, ApiVersion } from '@aso-registry/core/documents/api-types';
import { ledgerLine, lineHash, type LedgerEntry } from '@aso-registry/core/log/ledger';
import { sriOf, sriToHex } from '@aso-registry/core/format/sri';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { signedSiteCopy, type SignedSiteCopy } from '../sdk/support/signed-site-copy.ts';

const opened: Array<SignedSiteCopy | StaticServer> = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await ('close' in thing ? thing.close() : thing.remove());
});

/** A fresh signed copy, changed by `tamper`, served; then `verify-site` run against it with the copy's key. */
async function verifyTampered(tamper: (site: SignedSiteCopy) => Promise<void>): Promise<{ code: number; stdout: string; stderr: string; origin: string }> {
  const site = await signedSiteCopy();
  opened.push(site);
  await tamper(site);
  const server = await serveStatic(site.dir);
  opened.push(server);
  const out = await runLog(['verify-site', server.origin, '--key', site.key.text], {}, site.dir);
  return { ...out, origin: server.origin };
}

/** Rewrites the representation `repId` of `id@version` in the API document and agent.json to describe `bytes`, and serves `bytes`. */
async function replaceFile(site: SignedSiteCopy, id: string, version: string, repId: string, bytes: Uint8Array, where: { api: boolean; agent: boolean }): Promise<void> {
  const hash = await sriOf(bytes);
  const apiPath = `/api/v1/objects/${id}/versions/${version}.json`;
  const agentPath = `/objects/${id}/versions/${version}/agent.json`;
  const doc = await site.readJson<ApiVersion>(apiPath);
  const rep = doc.representations.find((r) => r.id === repId)!;
  const retarget = <T extends { representations: ApiVersion['representations'] }>(d: T): T => ({
    ...d,
    representations: d.representations.map((r) => (r.id === repId ? { ...r, hash, sha256: sriToHex(hash), byteLength: bytes.byteLength } : r)),
  });
  if (where.api) await site.write(apiPath, JSON.stringify(retarget(doc)));
  if (where.agent) await site.write(agentPath, JSON.stringify(retarget(await site.readJson<AgentDocument>(agentPath))));
  await site.write(new URL(rep.url).pathname, bytes);
}

/** The ledger's entries with `change` applied, the chain of `prev` hashes made whole again, and api/v1/ledger.json to match. */
async function rewriteLedger(site: SignedSiteCopy, change: (entries: LedgerEntry[]) => LedgerEntry[]): Promise<void> {
  const entries = change(String(await site.read('/ledger.jsonl')).trimEnd().split('\n').map((l) => JSON.parse(l) as LedgerEntry));
  const lines: string[] = [];
  entries.forEach((entry, i) => lines.push(ledgerLine({ ...entry, seq: i + 1, ...(i ? { prev: lineHash(lines[i - 1]!) } : {}) })));
  await site.write('/ledger.jsonl', lines.map((l) => `${l}\n`).join(''));
  const checkpoint = await site.readJson<ApiLedgerCheckpoint>('/api/v1/ledger.json');
  await site.write('/api/v1/ledger.json', JSON.stringify({ ...checkpoint, size: lines.length, head: lineHash(lines.at(-1)!) }));
}

describe('verify-site on a tampered copy of a built site', () => {
  it('refuses a replaced mesh.glb whose API document and agent.json were changed to match it, and passes the untampered copy', async () => {
    const untampered = await verifyTampered(async () => {});
    expect(untampered.stderr).toBe('');
    expect(untampered.code).toBe(0);
    expect(untampered.stdout).toMatch(/: checkpoint registry\.example\.org, 8 entries, signed by registry\.example\.org\+[0-9a-f]{8}; 8 versions proven in the log .*\nsite OK\n$/);

    const out = await verifyTampered(async (site) => {
      const other = await site.read('/objects/brass-lantern/versions/1.0.0/representations/mesh.glb');
      await replaceFile(site, 'oak-chair', '1.0.0', 'mesh', other, { api: true, agent: true });
      // agent.json alone, for a version whose API document is left as built.
      await replaceFile(site, 'oak-chair', '1.1.0', 'reference', new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), { api: false, agent: true });
    });
    expect(out.code).toBe(1);
    expect(out.stdout).not.toContain('site OK');
    const problems = out.stderr.trimEnd().split('\n');
    expect(problems).toContainEqual(
      expect.stringMatching(new RegExp(`^oak-chair@1\\.0\\.0: integrity failure: representation "mesh" in ${out.origin}/api/v1/objects/oak-chair/versions/1\\.0\\.0\\.json: it declares \\d+ bytes sha256-\\S+, but the verified manifest says 17164 bytes sha256-`)),
    );
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^oak-chair@1\\.1\\.0: integrity failure: representation "reference" in ${out.origin}/objects/oak-chair/versions/1\\.1\\.0/agent\\.json: it declares 4 bytes`)));
    expect(problems).toContainEqual(expect.stringMatching(/^oak-chair@1\.1\.0: reference: expected \d+ bytes sha256-\S+, got 4 bytes sha256-/));
  });

  it('refuses a rewritten ledger.jsonl, though its chain and api/v1/ledger.json agree with it', async () => {
    const rewritten = await verifyTampered((site) => rewriteLedger(site, (entries) => entries.map((e, i) => (i === 2 ? { ...e, publishedAt: '2025-01-01T00:00:00Z' } : e))));
    expect(rewritten.code).toBe(1);
    expect(rewritten.stderr.trimEnd().split('\n')).toEqual([
      `${rewritten.origin}/ledger.jsonl: line 3 is not the log's entry 3`,
      expect.stringMatching(new RegExp(`^${rewritten.origin}/api/v1/ledger\\.json: head is sha256-\\S+, but the log's last entry hashes to sha256-\\S+$`)),
    ]);

    const longer = await verifyTampered((site) =>
      rewriteLedger(site, (entries) => [...entries, { ...entries[0]!, publicationId: '00000000-0000-4000-8000-000000000000', version: '9.0.0' }]),
    );
    expect(longer.code).toBe(1);
    expect(longer.stderr).toBe(
      `${longer.origin}/ledger.jsonl: has 9 lines, but the checkpoint's log has 8 entries\n` +
        `${longer.origin}/api/v1/ledger.json: size is 9, but the checkpoint's log has 8 entries\n`,
    );
  });
});
