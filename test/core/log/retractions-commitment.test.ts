/** The checkpoint's `retractions` extension line: what it commits to, how it is written and read, and that the log key signs it. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointNote, formatCheckpoint, openCheckpoint, parseCheckpoint } from '@aso-registry/core/log/checkpoint';
import { retractionLine, type RetractionEntry } from '@aso-registry/core/log/retractions';
import {
  extendsCommitment,
  findRetractionsCommitment,
  formatRetractionsLine,
  parseRetractionsLine,
  readCommittedRetractions,
  retractionsCommitment,
} from '@aso-registry/core/log/retractions-commitment';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { digestOf } from '../records.ts';

const encoder = new TextEncoder();
const entry = (id: string, version: string): RetractionEntry => ({ id, version, recordHash: digestOf(`${id}@${version}`).sri, retractedAt: '2026-03-01T00:00:00Z', reason: 'wrong scale' });
const file = (...entries: RetractionEntry[]): Uint8Array => encoder.encode(entries.map((e) => `${retractionLine(e)}\n`).join(''));
const sri = (bytes: Uint8Array): string => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
const ROOT = new Uint8Array(32).fill(7);

describe('retractionsCommitment', () => {
  it('counts the lines and hashes the exact bytes, the empty file included', () => {
    expect(retractionsCommitment(new Uint8Array())).toEqual({ count: 0, hash: 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' });
    const two = file(entry('chair', '1.0.0'), entry('lamp', '2.0.0'));
    expect(retractionsCommitment(two)).toEqual({ count: 2, hash: sri(two) });
    // A last line without its newline still counts.
    expect(retractionsCommitment(two.subarray(0, -1)).count).toBe(2);
  });
});

describe('the extension line', () => {
  const c = retractionsCommitment(file(entry('chair', '1.0.0')));

  it('is written as "retractions <count> sha256-<base64>" and read back', () => {
    const line = formatRetractionsLine(c);
    expect(line).toBe(`retractions 1 ${sri(file(entry('chair', '1.0.0')))}`);
    expect(parseRetractionsLine(line)).toEqual(c);
  });

  it('goes after the root hash of the checkpoint body, and is found among other extension lines', () => {
    const body = formatCheckpoint({ origin: 'registry.example.org', size: 3, rootHash: ROOT, extensions: ['other-ext 42', formatRetractionsLine(c)] });
    expect(body.split('\n')[3]).toBe('other-ext 42');
    expect(body.split('\n')[4]).toBe(formatRetractionsLine(c));
    expect(findRetractionsCommitment(parseCheckpoint(body).extensions)).toEqual(c);
    expect(findRetractionsCommitment(['other-ext 42', 'retractionsx 1'])).toBeNull();
    expect(findRetractionsCommitment([])).toBeNull();
  });

  it('refuses a malformed line or two of them, naming what is wrong', () => {
    expect(() => parseRetractionsLine(`retractions 01 ${c.hash}`)).toThrow(/"01" is not a count of lines/);
    expect(() => parseRetractionsLine('retractions 1 sha256-abc')).toThrow(/"sha256-abc" is not sha256-<base64 of a 32-byte digest>/);
    expect(() => parseRetractionsLine(`retractions 1  ${c.hash}`)).toThrow(/three words separated by single spaces/);
    expect(() => parseRetractionsLine('retractions 1')).toThrow(/three words/);
    expect(() => findRetractionsCommitment([formatRetractionsLine(c), formatRetractionsLine(c)])).toThrow(/the checkpoint has 2 retractions lines/);
    expect(() => formatRetractionsLine({ count: -1, hash: c.hash })).toThrow(/not a whole number/);
  });

  it('is signed with the checkpoint: a note whose line was changed fails its signature', async () => {
    const key = generateKey('registry.example.org');
    const note = checkpointNote({ origin: 'registry.example.org', size: 3, rootHash: ROOT, extensions: [formatRetractionsLine(c)] }, key);
    expect((await openCheckpoint(note, [key])).signature.state).toBe('verified');
    const hidden = note.replace(formatRetractionsLine(c), formatRetractionsLine(retractionsCommitment(new Uint8Array())));
    expect(hidden).not.toBe(note);
    await expect(openCheckpoint(hidden, [key])).rejects.toThrow(/invalid signature for key registry\.example\.org\+/);
  });
});

describe('extendsCommitment', () => {
  const one = file(entry('chair', '1.0.0'));
  const two = file(entry('chair', '1.0.0'), entry('lamp', '2.0.0'));

  it('holds for the same file and for a file that only grew', () => {
    expect(extendsCommitment(one, retractionsCommitment(one))).toBe(true);
    expect(extendsCommitment(two, retractionsCommitment(one))).toBe(true);
    expect(extendsCommitment(two, retractionsCommitment(new Uint8Array()))).toBe(true);
  });

  it('fails for a file that lost or rewrote a line', () => {
    expect(extendsCommitment(one, retractionsCommitment(two))).toBe(false);
    expect(extendsCommitment(file(entry('lamp', '2.0.0'), entry('chair', '1.0.0')), retractionsCommitment(one))).toBe(false);
    expect(extendsCommitment(new Uint8Array(), retractionsCommitment(one))).toBe(false);
  });
});

describe('readCommittedRetractions', () => {
  it('gives the entries of the committed file, and none for the empty file', () => {
    const bytes = file(entry('chair', '1.0.0'), entry('lamp', '2.0.0'));
    expect(readCommittedRetractions(bytes, retractionsCommitment(bytes))).toEqual({ entries: [entry('chair', '1.0.0'), entry('lamp', '2.0.0')] });
    expect(readCommittedRetractions(new Uint8Array(), retractionsCommitment(new Uint8Array()))).toEqual({ entries: [] });
  });

  it('gives the commitment of other bytes, even with the same count', () => {
    const committed = retractionsCommitment(file(entry('chair', '1.0.0')));
    const other = file(entry('lamp', '1.0.0'));
    expect(readCommittedRetractions(other, committed)).toEqual({ actual: retractionsCommitment(other) });
  });

  it('says why the committed file itself is not valid', () => {
    const latin1 = new Uint8Array([...file(entry('chair', '1.0.0')).subarray(0, 20), 0xe9, 0x0a]);
    expect(readCommittedRetractions(latin1, retractionsCommitment(latin1))).toEqual({ problem: 'is not UTF-8' });
    const broken = encoder.encode(`${retractionLine(entry('chair', '1.0.0'))}\n{"id":1}\n`);
    const read = readCommittedRetractions(broken, retractionsCommitment(broken));
    expect(read).toMatchObject({ problem: expect.stringMatching(/^is not valid: line 2: /) });
  });
});
