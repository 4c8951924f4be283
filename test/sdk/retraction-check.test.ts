/**
 * Retractions through the signed checkpoint: a site built with the log key, where epsilon-five@2.1.0 is retracted, is
 * served from 127.0.0.1 as it was built or as a mirror changed it. With the log key pinned, the SDK takes a version's
 * retraction from the `/retractions.jsonl` the checkpoint's `retractions` line commits to, never from the API document.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runLedger } from '../../scripts/ledger.ts';
import { checkpointNote, openCheckpoint, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import { findRetractionsCommitment, formatRetractionsLine, retractionsCommitment } from '@aso-registry/core/log/retractions-commitment';
import { createClient, IntegrityError, LogError } from '@aso-registry/sdk';
import { pngBytes, writeVersion } from '../support/fixture-registry.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { launchBrowser } from '../support/browser.ts';
import { signedSite, type SignedSite } from '../log/signed-site.ts';
import { rejection } from './support/rejection.ts';

const REASON = 'Wrong scale: the model is ten times too large. Use 2.0.0.';
const RETRACTED_AT = '2026-01-05T00:00:00Z';
const retraction = { reason: REASON, retractedAt: RETRACTED_AT };

let site: SignedSite;
let server: StaticServer;
let note: string;
let checkpoint: Checkpoint;

beforeAll(async () => {
  site = await signedSite(async (root, parent) => {
    const bytes = await pngBytes(16, 12, { r: 251, g: 90, b: 40 });
    await writeVersion(root, { id: 'epsilon-five', version: '2.1.0', files: [{ id: 'picture', type: 'image', format: 'png', mediaType: 'image/png', bytes }] });
    for (const args of [['append', 'epsilon-five@2.1.0'], ['retract', 'epsilon-five@2.1.0', '--reason', REASON, '--at', RETRACTED_AT]]) {
      const out = await runLedger([...args, '--registry', root], {}, parent);
      if (out.code !== 0) throw new Error(`ledger ${args[0]} exited ${out.code}: ${out.stderr}`);
    }
  });
  server = await serveStatic(site.dist);
  note = await readFile(join(site.dist, 'checkpoint'), 'utf8');
  checkpoint = (await openCheckpoint(note, [site.logPub])).checkpoint;
});

afterAll(async () => {
  await server?.close();
  if (site) await rm(site.parent, { recursive: true, force: true });
});

afterEach(() => server.setOverride(undefined));

const pinned = (extra: { checkpoint?: string } = {}) => createClient({ origin: server.origin, logKey: site.logPub.text, ...extra });
const versionPath = (version: string): string => `/api/v1/objects/epsilon-five/versions/${version}.json`;
const OBJECT_PATH = '/api/v1/objects/epsilon-five.json';
const readJson = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(site.dist, ...path.split('/').filter(Boolean)), 'utf8')) as Record<string, unknown>;

/** Serves `bodies` (JSON values, or bytes and text as they are) in place of the built files at those paths. */
function serve(bodies: Record<string, unknown>): void {
  server.setOverride((path) => {
    if (!(path in bodies)) return undefined;
    const body = bodies[path];
    return { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) };
  });
}

/** The object's document and the version's with the retraction of 2.1.0 removed, as a mirror that hides it serves them. */
async function hidden(): Promise<Record<string, unknown>> {
  const object = await readJson(OBJECT_PATH);
  const versions = (object.versions as Array<Record<string, unknown>>).map((v) => ({ ...v, retracted: null }));
  return { [OBJECT_PATH]: { ...object, latest: '2.1.0', versions }, [versionPath('2.1.0')]: { ...(await readJson(versionPath('2.1.0'))), retracted: null } };
}

describe('the built site', () => {
  it('signs a checkpoint whose retractions line commits to the exact bytes of /retractions.jsonl', async () => {
    const served = new Uint8Array(await readFile(join(site.dist, 'retractions.jsonl')));
    expect(Buffer.from(served).equals(await readFile(join(site.root, 'retractions.jsonl')))).toBe(true);
    expect((await openCheckpoint(note, [site.logPub])).signature.state).toBe('verified');
    expect(findRetractionsCommitment(checkpoint.extensions)).toEqual({ count: 1, hash: retractionsCommitment(served).hash });
    expect(note.split('\n')[3]).toBe(formatRetractionsLine(retractionsCommitment(served)));
  });
});

describe('getObject with the log key pinned', () => {
  it('resolves the retraction with its reason and date from the signed retractions, and latest and ranges skip it', async () => {
    const sdk = pinned();
    const got = await sdk.getObject('epsilon-five', '2.1.0');
    expect(got).toMatchObject({ version: '2.1.0', retracted: retraction, retractionVerified: true, logVerified: { checkpoint: { signature: 'verified' } } });
    expect(await sdk.getObject('epsilon-five')).toMatchObject({ version: '2.0.0', retracted: null, retractionVerified: true });
    expect(await sdk.getObject('epsilon-five', '^2.0.0')).toMatchObject({ version: '2.0.0', retractionVerified: true });
    expect(await sdk.getObject('alpha-one', '1.0.0')).toMatchObject({ retracted: null, retractionVerified: true });
  });

  it('reads /retractions.jsonl once while the checkpoint commits to the same file', async () => {
    const reads: string[] = [];
    server.setOverride((path) => void (path === '/retractions.jsonl' && reads.push(path)));
    const sdk = pinned();
    for (const version of ['2.0.0', '2.1.0', 'latest']) await sdk.getObject('epsilon-five', version);
    expect(reads).toEqual(['/retractions.jsonl']);
  });

  it('refuses an API document that hides the retraction (a mirror that set "retracted" to null)', async () => {
    serve(await hidden());
    const error = await rejection(pinned().getObject('epsilon-five', '2.1.0'));
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toBe(
      `integrity failure: the retraction of epsilon-five@2.1.0 in ${server.origin}${versionPath('2.1.0')}: ` +
        `expected retracted at ${RETRACTED_AT} (${JSON.stringify(REASON)}), as the retractions the signed checkpoint commits to say, got not retracted`,
    );
    // latest, resolved from the version list that hides it, fails the same way.
    expect(((await rejection(pinned().getObject('epsilon-five'))) as Error).message).toMatch(/^integrity failure: the retraction of epsilon-five@2\.1\.0 in .*: expected retracted at /);
    // Without a pinned key the SDK can only take the mirror's word, and says so.
    expect(await createClient({ origin: server.origin }).getObject('epsilon-five')).toMatchObject({ version: '2.1.0', retracted: null, retractionVerified: false });
  });

  it('refuses a version list that hides the retraction, and lists the verified one', async () => {
    const listed = await pinned().listVersions('epsilon-five');
    expect(listed.find((v) => v.version === '2.1.0')?.retracted).toEqual(retraction);
    serve(await hidden());
    const error = await rejection(pinned().listVersions('epsilon-five'));
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toBe(
      `integrity failure: the retraction of epsilon-five@2.1.0 in ${server.origin}${OBJECT_PATH}: ` +
        `expected retracted at ${RETRACTED_AT} (${JSON.stringify(REASON)}), as the retractions the signed checkpoint commits to say, got not retracted`,
    );
  });

  it('refuses an API document that invents a retraction', async () => {
    const invented = { reason: 'Made up by a mirror', retractedAt: '2026-01-06T00:00:00Z' };
    serve({ [versionPath('2.0.0')]: { ...(await readJson(versionPath('2.0.0'))), retracted: invented } });
    const error = await rejection(pinned().getObject('epsilon-five', '2.0.0'));
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toMatch(/the retraction of epsilon-five@2\.0\.0 in .*: expected not retracted, as the retractions the signed checkpoint commits to say, got retracted at 2026-01-06T00:00:00Z \("Made up by a mirror"\)$/);
  });

  it('refuses a /retractions.jsonl that is not the file the checkpoint commits to', async () => {
    serve({ ...(await hidden()), '/retractions.jsonl': '' });
    const error = await rejection(pinned().getObject('epsilon-five', '2.1.0'));
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as Error).message).toBe(
      `integrity failure: the retractions file ${server.origin}/retractions.jsonl: expected ${findRetractionsCommitment(checkpoint.extensions)!.hash}, ` +
        `got 0 bytes ${retractionsCommitment(new Uint8Array()).hash}`,
    );
  });

  it('refuses a checkpoint whose retractions line was changed: its signature fails', async () => {
    const line = formatRetractionsLine(findRetractionsCommitment(checkpoint.extensions)!);
    const tampered = note.replace(line, formatRetractionsLine(retractionsCommitment(new Uint8Array())));
    expect(tampered).not.toBe(note);
    serve({ ...(await hidden()), '/checkpoint': tampered, '/retractions.jsonl': '' });
    const error = await rejection(pinned().getObject('epsilon-five', '2.1.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toMatch(/^log check failed: the checkpoint cannot be trusted: invalid signature for key /);
  });

  it('refuses a signed checkpoint that commits to no retractions', async () => {
    serve({ '/checkpoint': checkpointNote({ ...checkpoint, extensions: [] }, site.logKey) });
    const error = await rejection(pinned().getObject('epsilon-five', '2.0.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toBe(
      'log check failed: the signed checkpoint commits to no retractions (it has no "retractions <count> sha256-<hash>" line): the registry must be built again to sign them',
    );
  });

  it('refuses, once it has seen the retraction committed, an older signed checkpoint from before it', async () => {
    // What the log key signed before the retraction: the same tree, no retractions yet.
    const before = checkpointNote({ ...checkpoint, extensions: [formatRetractionsLine(retractionsCommitment(new Uint8Array()))] }, site.logKey);
    serve({ ...(await hidden()), '/checkpoint': before, '/retractions.jsonl': '' });
    // A client that saw only the older checkpoint cannot tell (the log has no clock), but one that saw today's can.
    expect(await pinned().getObject('epsilon-five', '2.1.0')).toMatchObject({ retracted: null, retractionVerified: true });
    const error = await rejection(pinned({ checkpoint: note }).getObject('epsilon-five', '2.1.0'));
    expect(error).toBeInstanceOf(LogError);
    expect((error as Error).message).toBe(
      `log check failed: the checkpoint commits to 0 retractions, fewer than the 1 of a checkpoint seen before: retractions were rolled back`,
    );
  });
});

describe('the record page in Chromium', () => {
  /** The retraction row of a record page once the browser has checked it. */
  async function retractionRow(version: string): Promise<{ state: string; text: string }> {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.origin}/objects/epsilon-five/versions/${version}/`);
      // The row sits in the verification badge's folded details: its text, not what is drawn.
      const row = page.locator('[data-retraction-state]');
      await page.waitForFunction(() => !['idle', 'checking'].includes(document.querySelector('[data-retraction-state]')?.getAttribute('data-retraction-state') ?? 'idle'), null, { timeout: 30_000 });
      return { state: (await row.getAttribute('data-retraction-state'))!, text: ((await row.textContent()) ?? '').trim() };
    } finally {
      await browser.close();
    }
  }

  it('says retracted from the signed retractions, and fails when a mirror serves another file', async () => {
    expect(await retractionRow('2.1.0')).toEqual({ state: 'retracted', text: `Retracted at ${RETRACTED_AT}: ${REASON}` });
    expect(await retractionRow('2.0.0')).toEqual({ state: 'verified', text: 'Not retracted, as the signed checkpoint commits' });
    serve({ '/retractions.jsonl': '' });
    const hidden = await retractionRow('2.1.0');
    expect(hidden.state).toBe('failed');
    expect(hidden.text).toMatch(/^Failed: integrity failure: the retractions file http:\/\/127\.0\.0\.1:\d+\/retractions\.jsonl: expected sha256-\S+, got 0 bytes sha256-/);
  });
});
