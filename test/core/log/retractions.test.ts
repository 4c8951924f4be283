import { describe, expect, it } from 'vitest';
import { appendRetraction, parseRetractions, retractionLine, type RetractionEntry } from '@aso-registry/core/log/retractions';
import { digestOf } from '../records.ts';

const entry = (id: string, version: string, over: Partial<RetractionEntry> = {}): RetractionEntry => ({
  id,
  version,
  recordHash: digestOf(`${id}@${version}`).sri,
  retractedAt: '2026-03-01T00:00:00Z',
  reason: 'wrong scale',
  ...over,
});
const line = (e: RetractionEntry) => retractionLine(e);

describe('retractionLine', () => {
  it('writes the keys in a fixed order, without spaces or a newline, whatever order they come in', () => {
    const e = entry('chair', '1.0.0');
    const shuffled = { reason: e.reason, retractedAt: e.retractedAt, recordHash: e.recordHash, version: e.version, id: e.id };
    expect(retractionLine(shuffled)).toBe(`{"id":"chair","version":"1.0.0","recordHash":"${e.recordHash}","retractedAt":"2026-03-01T00:00:00Z","reason":"wrong scale"}`);
  });

  it('drops fields that are not part of a retraction', () => {
    expect(retractionLine({ ...entry('chair', '1.0.0'), extra: 1 } as RetractionEntry)).toBe(line(entry('chair', '1.0.0')));
  });
});

describe('parseRetractions', () => {
  it('reads every entry with its line number, and accepts an empty file', () => {
    const text = `${line(entry('chair', '1.0.0'))}\n${line(entry('lamp', '2.0.0'))}\n`;
    const { entries, lineOf, problems } = parseRetractions(text);
    expect(problems).toEqual([]);
    expect(entries).toEqual([entry('chair', '1.0.0'), entry('lamp', '2.0.0')]);
    expect(lineOf).toEqual([1, 2]);
    expect(parseRetractions('')).toEqual({ entries: [], lineOf: [], problems: [] });
  });

  it('names the line that is not JSON, not an object, or has a field that is missing, unknown or mistyped', () => {
    const good = line(entry('chair', '1.0.0'));
    const bad = [
      'not json',
      '[1]',
      JSON.stringify({ ...entry('a1', '1.0.0'), note: 'x', other: 2 }),
      good.replace('"reason":"wrong scale"', '"reason":3'),
      line(entry('', '1.0.0')),
      line(entry('a2', '1.0.0', { recordHash: 'sha256-short' })),
      line(entry('a3', '1.0.0', { retractedAt: '2026-03-01' })),
      line(entry('a4', '1.0.0', { reason: '  ' })),
    ];
    const { entries, problems } = parseRetractions(`${good}\n${bad.join('\n')}\n`);
    expect(entries).toEqual([entry('chair', '1.0.0')]);
    expect(problems).toEqual([
      { line: 2, message: expect.stringMatching(/^is not JSON: /) },
      { line: 3, message: 'must be a JSON object' },
      { line: 4, message: 'unknown field "note", "other"' },
      { line: 5, message: 'reason must be a string' },
      { line: 6, message: 'id and version must not be empty' },
      { line: 7, message: 'recordHash must be sha256-<base64 of the 32-byte digest> (the record hash of the version)' },
      { line: 8, message: 'retractedAt must be an RFC 3339 date-time with an offset or Z' },
      { line: 9, message: 'reason must say why the version is retracted' },
    ]);
  });

  it('refuses a line that is not in canonical form, but still reads it', () => {
    const e = entry('chair', '1.0.0');
    const spaced = JSON.stringify(e, null, 1).replace(/\n/g, '');
    const { entries, problems } = parseRetractions(`${spaced}\n`);
    expect(entries).toEqual([e]);
    expect(problems).toEqual([{ line: 1, message: '(chair@1.0.0) is not in canonical form (keys id, version, recordHash, retractedAt, reason in this order, no spaces)' }]);
  });

  it('refuses a second retraction of the same version, naming the first line', () => {
    const text = [line(entry('chair', '1.0.0')), line(entry('lamp', '1.0.0')), line(entry('chair', '1.0.0', { reason: 'again' })), line(entry('chair', '1.0.0', { reason: 'thrice' }))].join('\n');
    expect(parseRetractions(`${text}\n`).problems).toEqual([
      { line: 3, message: '(chair@1.0.0) is already retracted on line 1' },
      { line: 4, message: '(chair@1.0.0) is already retracted on line 1' },
    ]);
  });

  it('keeps the line rules of the ledger: a final newline, no empty lines', () => {
    const text = `${line(entry('chair', '1.0.0'))}\n\n${line(entry('lamp', '1.0.0'))}`;
    expect(parseRetractions(text).problems).toEqual([
      { line: 3, message: 'the file must end with a newline' },
      { line: 2, message: 'empty line' },
    ]);
  });
});

describe('appendRetraction', () => {
  it('adds one canonical line at the end', () => {
    const first = appendRetraction('', entry('chair', '1.0.0'));
    expect(first).toBe(`${line(entry('chair', '1.0.0'))}\n`);
    const second = appendRetraction(first, entry('lamp', '2.0.0'));
    expect(second).toBe(`${first}${line(entry('lamp', '2.0.0'))}\n`);
    expect(parseRetractions(second).problems).toEqual([]);
  });

  it('refuses a version retracted already, naming its line', () => {
    const text = appendRetraction(appendRetraction('', entry('lamp', '2.0.0')), entry('chair', '1.0.0'));
    expect(() => appendRetraction(text, entry('chair', '1.0.0', { reason: 'twice' }))).toThrow('chair@1.0.0 is already retracted on line 2');
  });

  it('refuses to add to a broken file, and refuses an entry that would be a broken line', () => {
    expect(() => appendRetraction('garbage\n', entry('chair', '1.0.0'))).toThrow(/^cannot append to broken retractions: line 1: is not JSON/);
    expect(() => appendRetraction('', entry('chair', '1.0.0', { reason: '' }))).toThrow('cannot retract chair@1.0.0: reason must say why the version is retracted');
    expect(() => appendRetraction('', entry('chair', '1.0.0', { recordHash: 'md5-x' }))).toThrow(/^cannot retract chair@1\.0\.0: recordHash must be/);
  });
});
