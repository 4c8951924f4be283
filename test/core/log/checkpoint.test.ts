/** Checkpoints against Go's tlog golden text, and what a client makes of signed, unsigned and foreign ones. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointNote, checkpointOrigin, checkpointOriginProblem, formatCheckpoint, openCheckpoint, parseCheckpoint } from '@aso-registry/core/log/checkpoint';
import { leafHash } from '@aso-registry/core/log/merkle-tree';
import { generateKey } from '@aso-registry/core/log/note-signer';

const GO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'go-sumdb', 'vectors.json'), 'utf8')) as {
  tree: { origin: string; size: number; record: string; text: string; bad: string[] };
};

describe('the checkpoint body', () => {
  it('is written as Go\'s FormatTree writes it', () => {
    const { tree } = GO;
    const body = formatCheckpoint({ origin: tree.origin, size: tree.size, rootHash: leafHash(new TextEncoder().encode(tree.record)), extensions: [] });
    expect(body).toBe(tree.text);
    const back = parseCheckpoint(tree.text);
    expect(back.size).toBe(tree.size);
    expect(back.origin).toBe(tree.origin);
  });

  it('refuses what Go refuses, naming the line', () => {
    expect(() => parseCheckpoint(GO.tree.bad[1]!)).toThrow(/line 2: "0xabcdef" is not a tree size/);
    expect(() => parseCheckpoint(GO.tree.bad[2]!)).toThrow(/line 3: .* is not the base64 of a 32-byte hash/);
    expect(() => parseCheckpoint('origin\n012\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=\n')).toThrow(/line 2/);
    expect(() => parseCheckpoint('origin\n12\n')).toThrow(/at least 3 lines/);
    expect(() => parseCheckpoint('origin\n12\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBb0=')).toThrow(/ends with a newline/);
  });

  it('keeps extension lines', () => {
    const text = `${GO.tree.text}extra one\n`;
    expect(parseCheckpoint(text).extensions).toEqual(['extra one']);
  });

  it('takes its origin from the registry URL without the scheme', () => {
    expect(checkpointOrigin('https://registry.example.org')).toBe('registry.example.org');
    expect(checkpointOrigin('http://127.0.0.1:4321/reg/')).toBe('127.0.0.1:4321/reg');
  });
});

describe('reading /checkpoint', () => {
  const key = generateKey('registry.example.org');
  const other = generateKey('registry.example.org');
  const checkpoint = { origin: 'registry.example.org', size: 8, rootHash: new Uint8Array(32).fill(7), extensions: [] };

  it('verifies a checkpoint signed by the pinned key', async () => {
    const opened = await openCheckpoint(checkpointNote(checkpoint, key), [key]);
    expect(opened.signature.state).toBe('verified');
    expect(opened.checkpoint.size).toBe(8);
  });

  it('reads a bare body as unsigned', async () => {
    expect((await openCheckpoint(checkpointNote(checkpoint, null), [key])).signature).toEqual({ state: 'unsigned' });
  });

  it('reports a checkpoint signed by another key as unverified', async () => {
    const opened = await openCheckpoint(checkpointNote(checkpoint, other), [key]);
    expect(opened.signature.state).toBe('unverified');
  });

  it('refuses a checkpoint whose body changed after signing', async () => {
    const signed = checkpointNote(checkpoint, key).replace('\n8\n', '\n9\n');
    await expect(openCheckpoint(signed, [key])).rejects.toThrow(/invalid signature for key registry\.example\.org\+/);
  });

  it('names the origin when the pinned key signed a checkpoint of another log', async () => {
    const elsewhere = await openCheckpoint(checkpointNote({ ...checkpoint, origin: 'mirror.example.net' }, key), [key]);
    expect(elsewhere.signature.state).toBe('verified');
    expect(checkpointOriginProblem(elsewhere)).toBe(
      `the checkpoint's origin is "mirror.example.net", but the log key registry.example.org+${key.keyId} that signed it is for the origin "registry.example.org"`,
    );
    expect(checkpointOriginProblem(await openCheckpoint(checkpointNote(checkpoint, key), [key]))).toBeNull();
    expect(checkpointOriginProblem(await openCheckpoint(checkpointNote(checkpoint, null), [key]))).toBeNull();
  });
});
