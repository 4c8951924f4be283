/**
 * The record page's log check against a one-entry log: a checkpoint the pinned key signed for another log is refused, and
 * whether the version is retracted is read from the retractions the signed checkpoint commits to.
 */
import { describe, expect, it } from 'vitest';
import { toBase64 } from '@aso-registry/core/log/base64';
import { checkpointNote, type Checkpoint } from '@aso-registry/core/log/checkpoint';
import { ledgerLine } from '@aso-registry/core/log/ledger';
import { retractionLine } from '@aso-registry/core/log/retractions';
import { formatRetractionsLine, retractionsCommitment } from '@aso-registry/core/log/retractions-commitment';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { entryLeafHash, versionLog } from '@aso-registry/core/log/version-log';
import { checkLog } from '../../src/viewer/log-check.ts';
import type { LogViewConfig } from '../../src/viewer/log-config.ts';

const origin = 'registry.example.org';
const key = generateKey(origin);
const expected = { id: 'oak-chair', version: '1.0.0', recordHash: `sha256-${toBase64(new Uint8Array(32).fill(3))}` };
const entry = ledgerLine({ seq: 1, publicationId: '0b0e8a52-3f1c-4c55-9a43-6f3d2f6f8a11', ...expected, publishedAt: '2026-01-01T00:00:00Z' });
const config: LogViewConfig = {
  registryUrl: `https://${origin}`,
  logKey: key.text,
  log: versionLog(`https://${origin}/checkpoint`, 1, 0, entry, []),
  expected,
  publisherKeys: [],
};
const retraction = { ...expected, retractedAt: '2026-02-01T00:00:00Z', reason: 'Wrong scale: use 1.0.1.' };
const retractions = new TextEncoder().encode(`${retractionLine(retraction)}\n`);
const none = new Uint8Array();
/** The checkpoint of the one-entry tree, committing to the retractions file `committed`. */
const tree = (committed: Uint8Array): Checkpoint => ({ origin, size: 1, rootHash: entryLeafHash(entry), extensions: [formatRetractionsLine(retractionsCommitment(committed))] });

/** A site that serves a checkpoint note at /checkpoint and, if given, a retractions file. */
function serving(note: string, served: Uint8Array = none): typeof fetch {
  return async (input) => {
    const path = new URL(String(input)).pathname;
    if (path === '/checkpoint') return new Response(note);
    if (path === '/retractions.jsonl') return new Response(new Blob([served as Uint8Array<ArrayBuffer>]));
    return new Response('', { status: 404 });
  };
}

describe('the record page log check', () => {
  it('verifies the entry in a checkpoint its pinned key signed for this log', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(none), key)));
    expect(view.log).toEqual({ state: 'verified', text: `Verified: entry 1 of 1 in the checkpoint signed by ${origin}+${key.keyId}` });
  });

  it('fails a checkpoint the same key signed for another origin', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote({ ...tree(none), origin: 'mirror.example.net' }, key)));
    expect(view.log.state).toBe('failed');
    expect(view.log.text).toBe(`Failed: the checkpoint's origin is "mirror.example.net", but the log key ${origin}+${key.keyId} that signed it is for the origin "${origin}"`);
  });

  it('says not retracted, from the retractions the signed checkpoint commits to', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(none), key)));
    expect(view.retraction).toEqual({ state: 'verified', text: 'Not retracted, as the signed checkpoint commits' });
  });

  it('says retracted, with the date and reason of the committed file, whatever the page says', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(retractions), key), retractions));
    expect(view.retraction).toEqual({ state: 'retracted', text: `Retracted at ${retraction.retractedAt}: ${retraction.reason}` });
  });

  it('fails when the served retractions file is not the one the checkpoint commits to (a mirror that hides one)', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(retractions), key), none));
    expect(view.retraction.state).toBe('failed');
    expect(view.retraction.text).toMatch(/^Failed: integrity failure: the retractions file http:\/\/127\.0\.0\.1:1\/retractions\.jsonl: expected sha256-\S+, got 0 bytes sha256-/);
    const bare = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote({ ...tree(none), extensions: [] }, key)));
    expect(bare.retraction.state).toBe('failed');
    expect(bare.retraction.text).toMatch(/^Failed: the signed checkpoint commits to no retractions/);
  });

  it('does not claim anything without a checkpoint signed by the pinned key, and fails one signed by another', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(retractions), null), retractions));
    expect(view.log).toEqual({ state: 'unsigned', text: 'Included as entry 1 of 1, but the checkpoint is unsigned' });
    expect(view.retraction).toEqual({ state: 'unsigned', text: 'Not checked: the checkpoint is unsigned' });
    const someone = generateKey(origin);
    const other = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree(retractions), someone), retractions));
    const byOther = { state: 'failed', text: `Failed: the checkpoint is not signed by the pinned log key ${origin}+${key.keyId}: it is signed by ${origin}+${someone.keyId}` };
    expect(other).toMatchObject({ log: byOther, retraction: byOther });
  });

  it('says what it could and could not check when the registry commits no log key', async () => {
    const view = await checkLog({ ...config, logKey: null }, 'http://127.0.0.1:1', serving(checkpointNote(tree(retractions), key), retractions));
    expect(view.log).toEqual({ state: 'unsigned', text: 'Included as entry 1 of 1, but the checkpoint is not checked against a log key (the registry commits none)' });
    expect(view.retraction).toEqual({ state: 'unsigned', text: 'Not checked: the registry commits no log key' });
    expect(view.signature).toEqual({ state: 'unsigned', text: 'Not signed by its publisher' });
  });
});
