import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appendToLedger,
  extendsCheckpoint,
  isLedgerPrefix,
  ledgerFrom,
  ledgerLine,
  ledgerLines,
  ledgerRecordProblems,
  lineHash,
  verifyLedger,
  type LedgerPublication,
} from '@aso-registry/core/log/ledger';

/** The SRI of a string's UTF-8 bytes with Node's crypto (independent of the code under test). */
const sri = (text: string): string => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

const hash = (n: number): string => sri(`manifest ${n}`);
const pub = (n: number, id = 'chair', version = `1.0.${n}`): LedgerPublication => ({
  publicationId: `00000000-0000-4000-8000-00000000000${n}`,
  id,
  version,
  recordHash: hash(n),
  publishedAt: `2025-01-0${n}T00:00:00Z`,
});

/** A valid ledger of `n` publications, built by appending one at a time. */
async function ledgerOf(n: number): Promise<string> {
  let text = '';
  for (let i = 1; i <= n; i++) text = await appendToLedger(text, pub(i));
  return text;
}

const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');
const messages = async (text: string): Promise<string[]> => (await verifyLedger(text)).problems.map((p) => `line ${p.line}: ${p.message}`);

describe('ledgerLine', () => {
  it('writes the keys in a fixed order without spaces, and omits prev when absent', () => {
    expect(ledgerLine({ prev: 'p', publishedAt: 't', recordHash: 'h', version: 'v', id: 'i', publicationId: 'u', seq: 2 })).toBe(
      '{"seq":2,"publicationId":"u","id":"i","version":"v","recordHash":"h","publishedAt":"t","prev":"p"}',
    );
    expect(ledgerLine({ seq: 1, publicationId: 'u', id: 'i', version: 'v', recordHash: 'h', publishedAt: 't' })).not.toContain('prev');
  });
});

describe('appendToLedger and verifyLedger', () => {
  it('chains each line to the SRI of the exact bytes of the line before', async () => {
    const text = await ledgerOf(3);
    const [a, b, c] = lines(text);
    expect(JSON.parse(a!)).toEqual({ seq: 1, ...pub(1) });
    expect(JSON.parse(b!).prev).toBe(sri(a!));
    expect(JSON.parse(c!).prev).toBe(sri(b!));
    expect(lineHash(c!)).toBe(sri(c!));
    const verified = await verifyLedger(text);
    expect(verified.problems).toEqual([]);
    expect(verified.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(verified.head).toBe(sri(c!));
  });

  it('accepts the empty ledger, whose head is null', async () => {
    expect(await verifyLedger('')).toEqual({ entries: [], problems: [], head: null });
  });

  it('builds the same ledger at once with ledgerFrom', async () => {
    expect(await ledgerFrom([pub(1), pub(2), pub(3)])).toBe(await ledgerOf(3));
  });

  it('names a rewritten line: the next line no longer links to it', async () => {
    const [a, b, c] = lines(await ledgerOf(3));
    const rewritten = b!.replace(hash(2), hash(9));
    expect(await messages(`${a}\n${rewritten}\n${c}\n`)).toEqual([
      `line 3: (chair@1.0.3) prev is ${sri(b!)}, expected ${sri(rewritten)} (the hash of line 2); lines were changed, removed or reordered`,
    ]);
  });

  it('names reordered lines', async () => {
    const [a, b, c] = lines(await ledgerOf(3));
    const found = await messages(`${a}\n${c}\n${b}\n`);
    expect(found).toContain('line 2: (chair@1.0.3) seq is 3, expected 2');
    expect(found).toContain('line 3: (chair@1.0.2) seq is 2, expected 3');
    expect(found.some((m) => m.startsWith('line 2: (chair@1.0.3) prev is'))).toBe(true);
  });

  it('names a removed line', async () => {
    const [a, , c] = lines(await ledgerOf(3));
    const found = await messages(`${a}\n${c}\n`);
    expect(found[0]).toBe('line 2: (chair@1.0.3) seq is 3, expected 2');
    expect(found[1]).toMatch(/^line 2: \(chair@1\.0\.3\) prev is sha256-\S+, expected sha256-\S+ \(the hash of line 1\)/);
  });

  it('names an appended line whose prev is wrong', async () => {
    const text = await ledgerOf(2);
    const wrong = ledgerLine({ seq: 3, ...pub(3), prev: hash(7) });
    expect(await messages(`${text}${wrong}\n`)).toEqual([
      `line 3: (chair@1.0.3) prev is ${hash(7)}, expected ${sri(lines(text)[1]!)} (the hash of line 2); lines were changed, removed or reordered`,
    ]);
    const missing = ledgerLine({ seq: 3, ...pub(3) });
    expect((await messages(`${text}${missing}\n`))[0]).toMatch(/^line 3: \(chair@1\.0\.3\) prev is \(missing\), expected sha256-/);
  });

  it('refuses prev on the first line, a version or publication twice, and non-canonical lines', async () => {
    expect(await messages(`${ledgerLine({ seq: 1, ...pub(1), prev: hash(1) })}\n`)).toEqual(['line 1: (chair@1.0.1) the first line must not have prev']);
    const one = await ledgerOf(1);
    const again = ledgerLine({ seq: 2, ...pub(2), version: '1.0.1', prev: sri(lines(one)[0]!) });
    expect(await messages(`${one}${again}\n`)).toEqual(['line 2: (chair@1.0.1) chair@1.0.1 is already published on line 1']);
    const samePublication = ledgerLine({ seq: 2, ...pub(2), publicationId: pub(1).publicationId, prev: sri(lines(one)[0]!) });
    expect(await messages(`${one}${samePublication}\n`)).toEqual([`line 2: (chair@1.0.2) publicationId ${pub(1).publicationId} is already used on line 1`]);
    const spaced = JSON.stringify({ seq: 1, ...pub(1) }, null, 1).replace(/\n/g, '');
    expect(await messages(`${spaced}\n`)).toEqual([
      'line 1: (chair@1.0.1) is not in canonical form (keys seq, publicationId, id, version, recordHash, publishedAt, publisher, keyId, signature, prev in this order, no spaces)',
    ]);
  });

  it('names lines that are not JSON, not objects, or miss or mistype a field', async () => {
    const good = { seq: 1, ...pub(1) };
    const cases: Array<[string, string]> = [
      ['{"seq":1,', 'line 1: is not JSON: '],
      ['[1]', 'line 1: must be a JSON object'],
      [JSON.stringify({ ...good, extra: 1 }), 'line 1: unknown field "extra"'],
      [JSON.stringify({ ...good, seq: 0 }), 'line 1: seq must be a positive integer'],
      [JSON.stringify({ ...good, id: '' }), 'line 1: id must be a non-empty string'],
      [JSON.stringify({ ...good, publicationId: 'x' }), 'line 1: publicationId must be a UUID'],
      [JSON.stringify({ ...good, recordHash: 'sha256-abc' }), 'line 1: recordHash must be sha256-<base64 of the 32-byte digest>'],
      [JSON.stringify({ ...good, publishedAt: 'yesterday' }), 'line 1: publishedAt must be an RFC 3339 date-time with an offset or Z'],
    ];
    for (const [line, message] of cases) expect((await messages(`${line}\n`))[0], line).toContain(message);
  });

  it('requires a final newline, LF line endings and no empty lines', async () => {
    const text = await ledgerOf(2);
    expect(await messages(text.slice(0, -1))).toEqual(['line 2: the file must end with a newline']);
    expect(await messages(text.replace('\n', '\n\n'))).toContain('line 2: empty line');
    expect((await messages(text.replace(/\n/g, '\r\n')))[0]).toBe("line 1: ends with a carriage return; lines end with LF only (check git's core.autocrlf)");
    expect(ledgerLines('a\nb\n').lines).toEqual(['a', 'b']);
  });

  it('refuses to append to a broken ledger, or a version or publication that is there already', async () => {
    const text = await ledgerOf(2);
    await expect(appendToLedger(text.slice(0, -1), pub(3))).rejects.toThrow('cannot append to a broken ledger: line 2: the file must end with a newline');
    await expect(appendToLedger(text, { ...pub(3), version: '1.0.2' })).rejects.toThrow('chair@1.0.2 (publication 00000000-0000-4000-8000-000000000003) is already in the ledger on line 2');
    await expect(appendToLedger(text, { ...pub(3), publicationId: pub(1).publicationId })).rejects.toThrow('is already in the ledger on line 1');
    await expect(appendToLedger(text, { ...pub(3), recordHash: 'md5-x' })).rejects.toThrow('cannot append chair@1.0.3: recordHash must be');
  });
});

describe('isLedgerPrefix', () => {
  it('accepts an extension and the same ledger', async () => {
    const older = await ledgerOf(2);
    expect(isLedgerPrefix(older, await ledgerOf(3))).toEqual({ ok: true });
    expect(isLedgerPrefix(older, older)).toEqual({ ok: true });
    expect(isLedgerPrefix('', older)).toEqual({ ok: true });
  });

  it('says which older line was changed, moved or removed', async () => {
    const older = await ledgerOf(3);
    const [a, b, c] = lines(older);
    expect(isLedgerPrefix(older, `${a}\n${b!.replace(hash(2), hash(8))}\n${c}\n`)).toEqual({ ok: false, line: 2, kind: 'changed' });
    expect(isLedgerPrefix(older, `${a}\n${c}\n${b}\n`)).toEqual({ ok: false, line: 2, kind: 'moved', movedTo: 3 });
    expect(isLedgerPrefix(older, `${a}\n${b}\n`)).toEqual({ ok: false, line: 3, kind: 'removed' });
    expect(isLedgerPrefix(older, '')).toEqual({ ok: false, line: 1, kind: 'removed' });
  });
});

describe('what a client checks', () => {
  it('finds a version whose record hash is in a ledger that matches the checkpoint', async () => {
    const text = await ledgerOf(3);
    const { head } = await verifyLedger(text);
    const checkpoint = { size: 3, head };
    expect(await ledgerRecordProblems(text, checkpoint, { id: 'chair', version: '1.0.2', recordHash: hash(2), publicationId: pub(2).publicationId })).toEqual([]);
  });

  it('fails when the ledger omits the version, holds another record hash, or does not match the checkpoint', async () => {
    const text = await ledgerOf(3);
    const { head } = await verifyLedger(text);
    const checkpoint = { size: 3, head };
    expect(await ledgerRecordProblems(text, checkpoint, { id: 'chair', version: '9.0.0', recordHash: hash(9) })).toEqual(['chair@9.0.0 is not in the ledger']);
    expect(await ledgerRecordProblems(text, checkpoint, { id: 'chair', version: '1.0.2', recordHash: hash(9) })).toEqual([
      `line 2: chair@1.0.2 has record hash ${hash(2)}, but the version's record hash is ${hash(9)}`,
    ]);
    expect(await ledgerRecordProblems(text, checkpoint, { id: 'chair', version: '1.0.2', recordHash: hash(2), publicationId: pub(3).publicationId })).toEqual([
      `line 2: chair@1.0.2 has publication ${pub(2).publicationId}, but the version says ${pub(3).publicationId}`,
    ]);
    const shorter = await ledgerOf(2);
    expect(await ledgerRecordProblems(shorter, checkpoint, { id: 'chair', version: '1.0.2', recordHash: hash(2) })).toEqual([
      'the ledger has 2 lines but the checkpoint says 3',
    ]);
    // A ledger rewritten consistently (the chain recomputed) no longer has the published head.
    const rewritten = await ledgerFrom([pub(1), { ...pub(2), recordHash: hash(9) }, pub(3)]);
    expect(await ledgerRecordProblems(rewritten, checkpoint, { id: 'chair', version: '1.0.2', recordHash: hash(9) })).toEqual([
      `the ledger's head is ${(await verifyLedger(rewritten)).head} but the checkpoint says ${head}`,
    ]);
  });

  it('tells whether a ledger extends a checkpoint remembered earlier', async () => {
    const older = await ledgerOf(2);
    const checkpoint = { size: 2, head: (await verifyLedger(older)).head };
    expect(await extendsCheckpoint(await ledgerOf(3), checkpoint)).toBe(true);
    expect(await extendsCheckpoint(await ledgerFrom([pub(1), { ...pub(2), recordHash: hash(9) }, pub(3)]), checkpoint)).toBe(false);
    expect(await extendsCheckpoint(await ledgerOf(1), checkpoint)).toBe(false);
    expect(await extendsCheckpoint('', { size: 0, head: null })).toBe(true);
  });
});

describe('signed publications', () => {
  const signed = { publisher: 'alice', keyId: '0a1b2c3d', signature: `${'A'.repeat(86)}==` };

  it('keep the publisher, key ID and signature on their line, before prev', async () => {
    const text = await appendToLedger(await ledgerOf(1), { ...pub(2), ...signed });
    const line = lines(text)[1]!;
    expect(line).toMatch(/"publishedAt":"[^"]+","publisher":"alice","keyId":"0a1b2c3d","signature":"A+==","prev":"sha256-/);
    expect(await messages(text)).toEqual([]);
    expect((await verifyLedger(text)).entries[1]).toMatchObject(signed);
    expect(lines(await ledgerFrom([pub(1), { ...pub(2), ...signed }]))[1]).toBe(line);
  });

  it('refuses a line with only part of a signature, or a malformed one', async () => {
    const base = lines(await ledgerOf(1))[0]!;
    const withField = (extra: string): string => `${base.slice(0, -1)},${extra}}\n`;
    expect(await messages(withField('"publisher":"alice"'))).toEqual(['line 1: publisher, keyId and signature come together (found only publisher)']);
    expect(await messages(withField(`"publisher":"alice","keyId":"XYZ","signature":"${signed.signature}"`))).toEqual(['line 1: keyId must be 8 lowercase hex digits']);
    expect(await messages(withField(`"publisher":"a b","keyId":"0a1b2c3d","signature":"${signed.signature}"`))).toEqual(['line 1: publisher must be a key name (no spaces, no "+")']);
    expect(await messages(withField('"publisher":"alice","keyId":"0a1b2c3d","signature":"c2ln"'))).toEqual(['line 1: signature must be the base64 of a 64-byte Ed25519 signature']);
  });
});
