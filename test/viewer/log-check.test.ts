/** The record page's log check against a one-entry log: a checkpoint the pinned key signed for another log is refused. */
import { describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/core/log/base64.ts';
import { checkpointNote, type Checkpoint } from '../../src/core/log/checkpoint.ts';
import { ledgerLine } from '../../src/core/log/ledger.ts';
import { generateKey } from '../../src/core/log/signed-note.ts';
import { entryLeafHash, versionLog } from '../../src/core/log/version-log.ts';
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
const tree: Checkpoint = { origin, size: 1, rootHash: entryLeafHash(entry), extensions: [] };

/** A site that serves one checkpoint note at /checkpoint. */
function serving(note: string): typeof fetch {
  return async (input) => (new URL(String(input)).pathname === '/checkpoint' ? new Response(note) : new Response('', { status: 404 }));
}

describe('the record page log check', () => {
  it('verifies the entry in a checkpoint its pinned key signed for this log', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote(tree, key)));
    expect(view.log).toEqual({ state: 'verified', text: `Verified: entry 1 of 1 in the checkpoint signed by ${origin}+${key.keyId}` });
  });

  it('fails a checkpoint the same key signed for another origin', async () => {
    const view = await checkLog(config, 'http://127.0.0.1:1', serving(checkpointNote({ ...tree, origin: 'mirror.example.net' }, key)));
    expect(view.log.state).toBe('failed');
    expect(view.log.text).toBe(`Failed: the checkpoint's origin is "mirror.example.net", but the log key ${origin}+${key.keyId} that signed it is for the origin "${origin}"`);
  });
});
