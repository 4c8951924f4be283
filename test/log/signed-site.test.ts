/**
 * A built site whose checkpoint is signed: every proof verifies in Node (with Node's own Ed25519 too), through the SDK
 * and with `npm run log -- verify-site`; and each way of tampering fails: a changed entry, a dropped entry, a checkpoint
 * signed by another key, a proof from another tree size or another history, a publisher signature by another key, a
 * rolled-back checkpoint. Each version's proof is for the tree right after its own line, so a rebuild after a new
 * publication leaves every earlier version's log object as it was, and clients prove it in the newer tree from the tiles.
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runLedger } from '../../scripts/ledger.ts';
import { runLog } from '../../scripts/log.ts';
import { checkpointNote, openCheckpoint } from '@aso-registry/core/log/checkpoint';
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import { parseNote } from '@aso-registry/core/log/signed-note';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { hashTiles, tileData, tilePath, type FetchTile } from '@aso-registry/core/log/tlog-tiles';
import { versionLogProblems, type VersionLog } from '@aso-registry/core/log/version-log';
import { createClient, LogError } from '@aso-registry/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { buildSite } from '../support/build-site.ts';
import { pngBytes, writeVersion } from '../support/fixture-registry.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from '../sdk/support/rejection.ts';
import { signedSite, type SignedSite } from './signed-site.ts';

let site: SignedSite;
let server: StaticServer;

beforeAll(async () => {
  site = await signedSite();
  server = await serveStatic(site.dist);
});

afterAll(async () => {
  await server?.close();
  if (site) await rm(site.parent, { recursive: true, force: true });
});

afterEach(() => server.setOverride(undefined));

const encoder = new TextEncoder();
const versions = (): Array<{ id: string; version: string }> => site.lines.map((l) => JSON.parse(l) as { id: string; version: string });
const apiPath = (id: string, version: string): string => `/api/v1/objects/${id}/versions/${version}.json`;
const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(site.dist, ...path.split('/')), 'utf8')) as T;
/** Reads a tile from the built site's folder. */
const distTile: FetchTile = async (path) => new Uint8Array(await readFile(join(site.dist, ...path.split('/'))));
const client = (extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) => createClient({ origin: server.origin, logKey: site.logPub.text, ...extra });

/** A tree over some of the ledger's lines, its checkpoint signed with the log's own key (as a misbehaving log would). */
function forgedLog(lines: readonly string[]): { tree: MerkleTree; note: string } {
  const tree = MerkleTree.fromEntries(lines.map((l) => encoder.encode(l)));
  return { tree, note: checkpointNote({ origin: site.logPub.name, size: tree.size, rootHash: tree.root(), extensions: [] }, site.logKey) };
}

/** Serves the checkpoint and the hash tiles of `forged` in place of the site's. */
function serveLog(forged: { tree: MerkleTree; note: string }): void {
  const tiles = new Map(hashTiles(forged.tree.size).map((t) => [`/${tilePath(t)}`, tileData(forged.tree, t)]));
  server.setOverride((path) => {
    if (path === '/checkpoint') return { body: forged.note, type: 'text/plain' };
    const tile = tiles.get(path);
    return tile ? { body: tile } : undefined;
  });
}

describe('the built site', () => {
  it('serves a checkpoint signed by the log key, which Node\'s own Ed25519 verifies too', async () => {
    const note = await readFile(join(site.dist, 'checkpoint'), 'utf8');
    const opened = await openCheckpoint(note, [site.logPub]);
    expect(opened.signature.state).toBe('verified');
    expect(opened.checkpoint.size).toBe(5);
    const { text, signatures } = parseNote(note);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(site.logPub.publicKey).toString('base64url') }, format: 'jwk' });
    expect(nodeVerify(null, Buffer.from(text), key, Buffer.from(signatures[0]!.signature, 'base64'))).toBe(true);
    expect(await readFile(join(site.dist, 'log.pub'), 'utf8')).toBe(`${site.logPub.text}\n`);
    expect(await readFile(join(site.dist, 'publishers', 'alice.pub'), 'utf8')).toContain(site.alice.text);
  });

  it('gives every version a log object in agent.json and the API document, for the tree right after its line, that the tiles prove in the checkpoint\'s', async () => {
    const { checkpoint } = await openCheckpoint(await readFile(join(site.dist, 'checkpoint'), 'utf8'), [site.logPub]);
    for (const [i, { id, version }] of versions().entries()) {
      const doc = await readJson<{ log: VersionLog; publication: { recordHash: string; publicationId: string } }>(apiPath(id, version));
      const agent = await readJson<{ log: VersionLog }>(`objects/${id}/versions/${version}/agent.json`);
      expect(agent.log).toEqual(doc.log);
      expect(doc.log).toMatchObject({ checkpoint: 'https://registry.example.org/checkpoint', treeSize: i + 1, leafIndex: i, entry: site.lines[i] });
      const own = MerkleTree.fromEntries(site.lines.slice(0, i + 1).map((l) => encoder.encode(l)));
      expect(doc.log.inclusionProof).toEqual(own.inclusionProof(i).map((h) => Buffer.from(h).toString('base64')));
      expect(await versionLogProblems(doc.log, checkpoint, { id, version, ...doc.publication }, distTile)).toEqual([]);
      // A few hundred bytes: three hashes of 32 bytes for five entries.
      expect(doc.log.inclusionProof.length).toBeLessThanOrEqual(3);
    }
  });

  it('serves tiles and entry bundles that rebuild the checkpoint\'s root', async () => {
    const tree = MerkleTree.fromEntries(site.lines.map((l) => encoder.encode(l)));
    const { checkpoint } = await openCheckpoint(await readFile(join(site.dist, 'checkpoint'), 'utf8'), [site.logPub]);
    expect(Buffer.from(tree.root()).equals(Buffer.from(checkpoint.rootHash))).toBe(true);
    expect(new Uint8Array(await readFile(join(site.dist, 'tile', '0', '000.p', '5')))).toEqual(tileData(tree, { level: 0, index: 0, width: 5 }));
    const bundle = await readFile(join(site.dist, 'tile', 'entries', '000.p', '5'));
    expect(bundle.length).toBe(site.lines.reduce((n, l) => n + 2 + Buffer.byteLength(l), 0));
  });

  it('names the log in api/v1/index.json', async () => {
    const index = await readJson<{ log: Record<string, unknown> }>('api/v1/index.json');
    expect(index.log).toMatchObject({ checkpoint: 'https://registry.example.org/checkpoint', origin: site.logPub.name, key: site.logPub.text, publisherKeys: 'https://registry.example.org/publishers/{publisher}.pub' });
  });
});

describe('the SDK', () => {
  it('proves every version, the signed one with its publisher', async () => {
    const sdk = client();
    for (const [i, { id, version }] of versions().entries()) {
      const got = await sdk.getObject(id, version);
      expect(got.logVerified?.leafIndex).toBe(i);
      expect(got.logVerified?.checkpoint).toMatchObject({ size: 5, signature: 'verified', signedBy: `${site.logPub.name}+${site.logPub.keyId}` });
      expect(got.logVerified?.publisher).toEqual(id === site.signed.id ? { name: 'alice', keyId: site.alice.keyId } : null);
      expect(got.ledgerVerified).toBe(false);
    }
    const proven = await sdk.verifyInclusion(site.signed.id, site.signed.version);
    expect(proven.publisher?.name).toBe('alice');
    expect(proven.consistency).toEqual({ from: 5, to: 5 });
    expect(sdk.checkpoint()).toBe(await readFile(join(site.dist, 'checkpoint'), 'utf8'));
  });

  it('proves a version published before the last in today\'s tree from the tiles, and the last with its own proof', async () => {
    const read: string[] = [];
    server.setOverride((path) => void (path.startsWith('/tile/') && read.push(path)));
    const { id, version } = versions()[1]!;
    expect((await client().getObject(id, version)).logVerified).toMatchObject({ leafIndex: 1, checkpoint: { size: 5, signature: 'verified' } });
    expect(read).toEqual(['/tile/0/000.p/5']);
    read.length = 0;
    const last = versions()[4]!;
    expect((await client().getObject(last.id, last.version)).logVerified).toMatchObject({ leafIndex: 4, checkpoint: { size: 5 } });
    expect(read).toEqual([]);
  });

  it('proves that an older checkpoint is a prefix of today\'s, from the tiles', async () => {
    const older = forgedLog(site.lines.slice(0, 3)).note;
    const proven = await client().verifyConsistency(older);
    expect(proven).toMatchObject({ from: 3, to: 5, checkpoint: { signature: 'verified' } });
    const sdk = client({ checkpoint: older });
    expect((await sdk.getObject('alpha-one', '1.0.0')).logVerified?.consistency).toEqual({ from: 3, to: 5 });
  });

  it('refuses a changed ledger entry', async () => {
    const { id, version } = versions()[1]!;
    const doc = await readJson<{ log: VersionLog }>(apiPath(id, version));
    const changed = { ...doc, log: { ...doc.log, entry: doc.log.entry.replace('"publishedAt":"2026-01-02', '"publishedAt":"2026-01-09') } };
    server.setOverride((path) => (path === apiPath(id, version) ? { body: JSON.stringify(changed) } : undefined));
    const error = await rejection(client().getObject(id, version));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(new RegExp(`log check failed: ${id}@${version} is not proven to be in the log: the proof of leaf 1 leads to another root`));
  });

  it('refuses a log that dropped an entry', async () => {
    const dropped = forgedLog([...site.lines.slice(0, 2), ...site.lines.slice(3)]);
    const sdk = client();
    await sdk.getObject('alpha-one', '1.0.0');
    serveLog(dropped);
    const error = await rejection(sdk.getObject('alpha-one', '1.0.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(/the checkpoint of 4 entries does not extend the one of 5 seen before: the tree shrank from 5 leaves to 4/);
    // A client that never saw the longer log still finds that the versions' proofs do not fit the shorter tree.
    const { id, version } = versions()[4]!;
    expect(((await rejection(client().getObject(id, version))) as Error).message).toMatch(/the proof is for a tree of 5 entries, but the checkpoint is of 4/);
  });

  it('refuses a checkpoint signed by another key', async () => {
    const other = generateKey(site.logPub.name);
    const { checkpoint } = await openCheckpoint(await readFile(join(site.dist, 'checkpoint'), 'utf8'), [site.logPub]);
    server.setOverride((path) => (path === '/checkpoint' ? { body: checkpointNote(checkpoint, other), type: 'text/plain' } : undefined));
    const error = await rejection(client().getObject('alpha-one', '1.0.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toBe(
      `log check failed: the checkpoint is not signed by the pinned log key ${site.logPub.name}+${site.logPub.keyId}: it is signed by ${other.name}+${other.keyId}`,
    );
    server.setOverride((path) => (path === '/checkpoint' ? { body: checkpointNote(checkpoint, null), type: 'text/plain' } : undefined));
    expect(((await rejection(client().getObject('alpha-one', '1.0.0'))) as Error).message).toMatch(/not signed by the pinned log key .*: it is unsigned/);
    // Without a pinned key the proof still holds, and the SDK says the signature was not checked.
    expect((await createClient({ origin: server.origin }).getObject('alpha-one', '1.0.0')).logVerified?.checkpoint.signature).toBe('unsigned');
  });

  it('refuses a proof from another tree size', async () => {
    const { id, version } = versions()[2]!;
    const doc = await readJson<{ log: VersionLog }>(apiPath(id, version));
    const smaller = MerkleTree.fromEntries(site.lines.slice(0, 4).map((l) => encoder.encode(l)));
    const proof = smaller.inclusionProof(2).map((h) => Buffer.from(h).toString('base64'));
    expect(proof).not.toEqual(doc.log.inclusionProof);
    server.setOverride((path) => (path === apiPath(id, version) ? { body: JSON.stringify({ ...doc, log: { ...doc.log, inclusionProof: proof } }) } : undefined));
    const error = await rejection(client().getObject(id, version));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(/is not proven to be in the log/);
  });

  it('refuses a proof from another history, though the entry itself is in the log', async () => {
    const { id, version } = versions()[2]!;
    const doc = await readJson<{ log: VersionLog }>(apiPath(id, version));
    const fork = MerkleTree.fromEntries([site.lines[0]!.replace('2026-01-0', '2026-02-0'), ...site.lines.slice(1, 3)].map((l) => encoder.encode(l)));
    const proof = fork.inclusionProof(2).map((h) => Buffer.from(h).toString('base64'));
    expect(proof).not.toEqual(doc.log.inclusionProof);
    server.setOverride((path) => (path === apiPath(id, version) ? { body: JSON.stringify({ ...doc, log: { ...doc.log, inclusionProof: proof } }) } : undefined));
    const error = await rejection(client().getObject(id, version));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(new RegExp(`^log check failed: ${id}@${version} is not proven to be in the log: the root its inclusion proof leads to is not that of the checkpoint's first 3 entries`));
  });

  it('fails, saying so, when a tile cannot be read', async () => {
    server.setOverride((path) => (path === '/tile/0/000.p/5' ? { status: 404, body: 'not found' } : undefined));
    const error = await rejection(client().getObject('alpha-one', '1.0.0'));
    expect((error as Error).message).toMatch(/tile\/0\/000\.p\/5/);
  });

  it('refuses a publisher signature that another key made', async () => {
    const mallory = generateKey('alice');
    server.setOverride((path) => (path === '/publishers/alice.pub' ? { body: `${mallory.text}\n` } : undefined));
    const error = await rejection(client().getObject(site.signed.id, site.signed.version));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toBe(
      `log check failed: the publisher signature of ${site.signed.id}@${site.signed.version} fails: no key alice+${site.alice.keyId} is registered for publisher "alice" (registered: ${mallory.keyId})`,
    );
    server.setOverride(undefined);
    const pinned = client({ publisherKeys: { alice: mallory.text } });
    expect(((await rejection(pinned.getObject(site.signed.id, site.signed.version))) as Error).message).toMatch(/publisher signature .* fails/);
  });

  it('refuses a rolled-back checkpoint', async () => {
    const today = await readFile(join(site.dist, 'checkpoint'), 'utf8');
    const older = forgedLog(site.lines.slice(0, 4));
    serveLog(older);
    const error = await rejection(client().verifyConsistency(today));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(/the checkpoint of 4 entries does not extend the one of 5: the tree shrank from 5 leaves to 4: it was rolled back or rewritten/);
    expect(await rejection(client({ checkpoint: today }).getObject('alpha-one', '1.0.0'))).toBeInstanceOf(LogError);
    // A rewritten history of the same size fails too.
    const rewritten = forgedLog([...site.lines.slice(0, 4), site.lines[4]!.replace('2026-01-02', '2026-01-07')]);
    serveLog(rewritten);
    expect(((await rejection(client().verifyConsistency(today))) as Error).message).toMatch(/two trees of 5 leaves have different roots: the log was rewritten/);
  });
});

describe('npm run log -- verify-site', () => {
  it('verifies the checkpoint, every tile, proof, signature and byte', async () => {
    const out = await runLog(['verify-site', server.origin, '--key', site.logPubFile], {}, site.parent);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      `${server.origin}: checkpoint ${site.logPub.name}, 5 entries, signed by ${site.logPub.name}+${site.logPub.keyId}; 5 versions proven in the log (1 signed by their publisher), 2 tiles, 5 files, ` +
        `${out.stdout.match(/5 files, ([\d,]+) bytes/)![1]} bytes verified\nsite OK\n`,
    );
  });

  it('reports every tampered part and exits 1', async () => {
    // The last version's proof is for the checkpoint's own tree, so its bytes are checked whatever the tiles say.
    const { id, version } = versions()[4]!;
    const image = `/objects/${id}/versions/${version}/representations/picture.png`;
    server.setOverride((path) => {
      if (path === image) return { body: new Uint8Array([1, 2, 3]) };
      if (path === '/tile/0/000.p/5') return { body: new Uint8Array(160) };
      return undefined;
    });
    const out = await runLog(['verify-site', server.origin, '--key', site.logPubFile], {}, site.parent);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${server.origin}/tile/0/000.p/5: is not the tile of the checkpoint's tree`);
    expect(out.stderr).toMatch(new RegExp(`${id}@${version}: picture: expected \\d+ bytes sha256-\\S+, got 3 bytes sha256-`));
    // The versions before it are proven in the checkpoint's tree from that tile, so the bad tile fails them too.
    for (const v of versions().slice(0, 4)) expect(out.stderr).toContain(`${v.id}@${v.version}: log check failed: ${v.id}@${v.version} is not proven to be in the log`);
  });

  it('refuses a checkpoint signed by another key, and needs a key unless told otherwise', async () => {
    const other = generateKey(site.logPub.name);
    const out = await runLog(['verify-site', server.origin, '--key', other.text], {}, site.parent);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/checkpoint: log check failed: the checkpoint is not signed by the pinned log key/);
    const none = await runLog(['verify-site', server.origin, '--registry', join(site.parent, 'nowhere')], {}, site.parent);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no log key given/);
  });
});

describe('the record page in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a version's record page and waits until both log rows have settled. */
  async function rows(id: string, version: string): Promise<{ log: string; logText: string; signature: string; signatureText: string; seen: string[]; requests: string[] }> {
    context = await browser.newContext();
    page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    // Every text the signature row ever shows, so that a test can say what never appeared.
    await page.addInitScript(() => {
      (window as unknown as { seen: string[] }).seen = [];
      new MutationObserver(() => {
        const row = document.querySelector('[data-signature-state]');
        if (row) (window as unknown as { seen: string[] }).seen.push(`${row.getAttribute('data-signature-state')}: ${row.textContent ?? ''}`);
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.goto(`${server.origin}/objects/${id}/versions/${version}/`);
    await page.waitForFunction(
      () => ['verified', 'unsigned', 'failed'].includes(document.querySelector('[data-log-state]')?.getAttribute('data-log-state') ?? '') &&
        ['verified', 'unsigned', 'failed'].includes(document.querySelector('[data-signature-state]')?.getAttribute('data-signature-state') ?? ''),
      null,
      { timeout: 30_000 },
    );
    const out = await page.evaluate(() => {
      const log = document.querySelector<HTMLElement>('[data-log-state]')!;
      const sig = document.querySelector<HTMLElement>('[data-signature-state]')!;
      return { log: log.dataset.logState!, logText: log.textContent!.trim(), signature: sig.dataset.signatureState!, signatureText: sig.textContent!.trim(), seen: (window as unknown as { seen: string[] }).seen };
    });
    await context.close();
    return { ...out, requests };
  }

  it('shows Verified and Signed by alice only after checking the proof and the signature in the browser', async () => {
    const html = await (await fetch(`${server.origin}/objects/${site.signed.id}/versions/${site.signed.version}/`)).text();
    expect(html).not.toContain('Signed by alice');
    expect(html).not.toContain('Verified: entry');
    const got = await rows(site.signed.id, site.signed.version);
    expect(got).toMatchObject({
      log: 'verified',
      logText: `Verified: entry 4 of 5 in the checkpoint signed by ${site.logPub.name}+${site.logPub.keyId}`,
      signature: 'verified',
      signatureText: 'Signed by alice',
    });
    expect(got.seen.filter((s) => s.includes('Signed by')).every((s) => s.startsWith('verified: '))).toBe(true);
    // The check's code (Ed25519, SHA-2) is fetched only after the viewer has its bytes, then the checkpoint.
    const at = (pattern: RegExp): number => got.requests.findIndex((p) => pattern.test(p));
    expect(at(/\/representations\/picture\.png$/)).toBeGreaterThan(-1);
    expect(at(/\/_astro\/log-check\.[\w-]+\.js$/)).toBeGreaterThan(at(/\/representations\/picture\.png$/));
    expect(at(/^\/checkpoint$/)).toBeGreaterThan(at(/\/_astro\/log-check\.[\w-]+\.js$/));
    // Its proof is for the tree of its own 4 entries: the tile of today's tree proves it in the checkpoint's 5.
    expect(at(/^\/tile\/0\/000\.p\/5$/)).toBeGreaterThan(at(/^\/checkpoint$/));
  });

  it('verifies the last version with its own proof, reading no tile', async () => {
    const { id, version } = versions()[4]!;
    const got = await rows(id, version);
    expect(got).toMatchObject({ log: 'verified', logText: `Verified: entry 5 of 5 in the checkpoint signed by ${site.logPub.name}+${site.logPub.keyId}` });
    expect(got.requests.filter((p) => p.startsWith('/tile/'))).toEqual([]);
  });

  it('says an unsigned version is not signed, and still verifies its place in the log', async () => {
    const got = await rows('alpha-one', '1.0.0');
    expect(got).toMatchObject({ log: 'verified', signature: 'unsigned', signatureText: 'Not signed by its publisher' });
  });

  it('fails the log row for a checkpoint signed by another key, or a proof that does not lead to the root', async () => {
    const other = generateKey(site.logPub.name);
    const { checkpoint } = await openCheckpoint(await readFile(join(site.dist, 'checkpoint'), 'utf8'), [site.logPub]);
    server.setOverride((path) => (path === '/checkpoint' ? { body: checkpointNote(checkpoint, other), type: 'text/plain' } : undefined));
    const byOther = await rows('alpha-one', '1.0.0');
    expect(byOther.log).toBe('failed');
    expect(byOther.logText).toBe(`Failed: the checkpoint is not signed by the pinned log key ${site.logPub.name}+${site.logPub.keyId}: it is signed by ${other.name}+${other.keyId}`);
    // A rewritten first line: alpha-one's entry is not in that tree, whose tiles the browser reads.
    serveLog(forgedLog([site.lines[0]!.replace('2026-01-0', '2026-02-0'), ...site.lines.slice(1)]));
    const rewritten = await rows('alpha-one', '1.0.0');
    expect(rewritten.log).toBe('failed');
    expect(rewritten.logText).toMatch(/^Failed: alpha-one@1\.0\.0 is not proven to be in the log: the proof of leaf 0 leads to another root than the tree of 5 leaves has$/);
    // delta-four's entry is in it, but its own proof is of a tree of 4 entries that this log does not begin with.
    const forked = await rows(site.signed.id, site.signed.version);
    expect(forked.log).toBe('failed');
    expect(forked.logText).toMatch(/^Failed: delta-four@1\.0\.0 is not proven to be in the log: the root its inclusion proof leads to is not that of the checkpoint's first 4 entries/);
  });

  it('fails the log row for a changed entry on the page, and for a tile it cannot read', async () => {
    const pagePath = `/objects/${site.signed.id}/versions/${site.signed.version}/`;
    const html = await readFile(join(site.dist, ...pagePath.split('/').filter(Boolean), 'index.html'), 'utf8');
    const changed = html.replace(/(<script type="application\/json" class="log-config">.*?)2026-01-03T00:00:00Z(.*?<\/script>)/s, '$12026-01-09T00:00:00Z$2');
    expect(changed).not.toBe(html);
    server.setOverride((path) => (path === pagePath || path === `${pagePath}index.html` ? { body: changed, type: 'text/html; charset=utf-8' } : undefined));
    const got = await rows(site.signed.id, site.signed.version);
    expect(got.log).toBe('failed');
    expect(got.logText).toBe('Failed: delta-four@1.0.0 is not proven to be in the log: the proof of leaf 3 leads to another root than the tree of 5 leaves has');
    server.setOverride((path) => (path === '/tile/0/000.p/5' ? { status: 404, body: 'not found' } : undefined));
    const missing = await rows('alpha-one', '1.0.0');
    expect(missing.log).toBe('failed');
    expect(missing.logText).toMatch(/^Failed: not found: http:\/\/127\.0\.0\.1:\d+\/tile\/0\/000\.p\/5 \(HTTP 404\)$/);
  });

  it('never shows Signed by when the publisher key on the page is not the one that signed', async () => {
    const mallory = generateKey('alice');
    const pagePath = `/objects/${site.signed.id}/versions/${site.signed.version}/`;
    const html = (await readFile(join(site.dist, ...pagePath.split('/').filter(Boolean), 'index.html'), 'utf8')).replace(site.alice.text, mallory.text);
    server.setOverride((path) => (path === pagePath || path === `${pagePath}index.html` ? { body: html, type: 'text/html; charset=utf-8' } : undefined));
    const got = await rows(site.signed.id, site.signed.version);
    expect(got.signature).toBe('failed');
    expect(got.signatureText).toBe(
      `Failed: the publisher signature of ${site.signed.id}@${site.signed.version} fails: no key alice+${site.alice.keyId} is registered for publisher "alice" (registered: ${mallory.keyId})`,
    );
    expect(got.seen.some((s) => s.includes('Signed by'))).toBe(false);
  });
});

describe('a rebuild after a new publication', () => {
  let next: string;
  let nextServer: StaticServer;
  const logConfig = (html: string): string => /<script type="application\/json" class="log-config">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
  const files = (id: string, version: string): string[] => [
    `objects/${id}/versions/${version}/agent.json`,
    `api/v1/objects/${id}/versions/${version}.json`,
    `objects/${id}/versions/${version}/index.html`,
  ];

  beforeAll(async () => {
    await writeVersion(site.root, { id: 'zeta-six', version: '1.0.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes: await pngBytes(16, 12, { r: 5, g: 5, b: 5 }) }] });
    const appended = await runLedger(['append', 'zeta-six@1.0.0', '--registry', site.root], {}, site.parent);
    if (appended.code !== 0) throw new Error(appended.stderr);
    next = join(site.parent, 'dist-next');
    const built = await buildSite({ outDir: next, registryDir: site.root, env: { ASO_LOG_KEY_FILE: site.logKeyFile } });
    if (built.code !== 0) throw new Error(`build failed:\n${built.stdout}\n${built.stderr}`);
    nextServer = await serveStatic(next);
  });
  afterAll(async () => {
    await nextServer?.close();
  });

  it('leaves the log object of every earlier version byte-identical in agent.json, the API document and the record page', async () => {
    const { checkpoint } = await openCheckpoint(await readFile(join(next, 'checkpoint'), 'utf8'), [site.logPub]);
    expect(checkpoint.size).toBe(6);
    for (const { id, version } of versions()) {
      const [agent, api, page] = files(id, version);
      const log = async (dir: string): Promise<string[]> => [
        JSON.stringify((JSON.parse(await readFile(join(dir, agent!), 'utf8')) as { log: unknown }).log),
        JSON.stringify((JSON.parse(await readFile(join(dir, api!), 'utf8')) as { log: unknown }).log),
        JSON.stringify((JSON.parse(logConfig(await readFile(join(dir, page!), 'utf8'))) as { log: unknown }).log),
      ];
      const [before, after] = [await log(site.dist), await log(next)];
      expect(after, `${id}@${version}`).toEqual(before);
      expect(new Set(after).size).toBe(1);
    }
  });

  it('proves every earlier version in the larger tree, in the SDK, with verify-site and in the browser', async () => {
    const sdk = createClient({ origin: nextServer.origin, logKey: site.logPub.text });
    for (const [i, { id, version }] of versions().entries()) {
      expect((await sdk.getObject(id, version)).logVerified).toMatchObject({ leafIndex: i, checkpoint: { size: 6, signature: 'verified' } });
    }
    const out = await runLog(['verify-site', nextServer.origin, '--key', site.logPubFile], {}, site.parent);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/6 entries, .*; 6 versions proven in the log .*\nsite OK\n$/);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${nextServer.origin}/objects/${site.signed.id}/versions/${site.signed.version}/`);
      await page.waitForFunction(() => ['verified', 'unsigned', 'failed'].includes(document.querySelector('[data-log-state]')?.getAttribute('data-log-state') ?? ''), null, { timeout: 30_000 });
      expect(await page.evaluate(() => document.querySelector('[data-log-state]')!.textContent!.trim())).toBe(
        `Verified: entry 4 of 6 in the checkpoint signed by ${site.logPub.name}+${site.logPub.keyId}`,
      );
    } finally {
      await browser.close();
    }
  });
});
