/** Signed notes against the keys, notes and signatures of Go's golang.org/x/mod/sumdb/note tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatVerifierKey, keyIdOf, NoteError, openNote, parseNote, parseVerifierKey, verifyText } from '@aso-registry/core/log/signed-note';
import { generateKey, parseSignerKey, signNote } from '@aso-registry/core/log/note-signer';

const GO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'go-sumdb', 'vectors.json'), 'utf8')) as {
  note: {
    signerKey: string;
    verifierKey: string;
    keyId: string;
    text: string;
    signed: string;
    signatureLine: string;
    second: { name: string; seed: string; verifierKey: string; signatureLine: string };
    badVerifierKeys: string[];
    malformed: string[];
    invalidSignature: string;
  };
};
const { note } = GO;

describe('keys', () => {
  it('reads Go\'s example keys and agrees on the key ID', () => {
    const verifier = parseVerifierKey(note.verifierKey);
    const signer = parseSignerKey(note.signerKey);
    expect(verifier.name).toBe('PeterNeumann');
    expect(verifier.keyId).toBe(note.keyId);
    expect(signer.keyId).toBe(note.keyId);
    expect(signer.text).toBe(note.verifierKey);
    expect(keyIdOf('PeterNeumann', verifier.publicKey)).toBe(note.keyId);
    expect(formatVerifierKey('PeterNeumann', verifier.publicKey)).toBe(note.verifierKey);
  });

  it('makes the same key pair as Go from the same seed', () => {
    const key = generateKey(note.second.name, new Uint8Array(Buffer.from(note.second.seed, 'hex')));
    expect(key.text).toBe(note.second.verifierKey);
    expect(parseSignerKey(key.signerText).text).toBe(note.second.verifierKey);
  });

  it('refuses every substring and every one-character change of the verifier key, as Go does', () => {
    const key = note.verifierKey;
    for (let i = 0; i <= key.length; i++) {
      for (let j = i + 1; j <= key.length; j++) {
        if (i === 0 && j === key.length) continue;
        expect(() => parseVerifierKey(key.slice(i, j)), key.slice(i, j)).toThrow(NoteError);
      }
    }
    for (let i = 0; i < key.length; i++) {
      const changed = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
      expect(() => parseVerifierKey(changed), changed).toThrow(NoteError);
    }
    for (const bad of note.badVerifierKeys) expect(() => parseVerifierKey(bad)).toThrow(NoteError);
  });

  it('refuses every substring and every one-character change of the signer key', () => {
    const key = note.signerKey;
    for (let i = 0; i <= key.length; i += 3) {
      for (let j = i + 1; j <= key.length; j++) if (!(i === 0 && j === key.length)) expect(() => parseSignerKey(key.slice(i, j))).toThrow(NoteError);
    }
    for (let i = 0; i < key.length; i++) {
      const changed = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
      expect(() => parseSignerKey(changed), changed).toThrow(NoteError);
    }
  });

  it('never puts the private key in an error message', () => {
    const broken = note.signerKey.replace('+c74f20a3+', '+c74f20a4+');
    const message = (() => {
      try {
        parseSignerKey(broken);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/key ID/);
    expect(message).not.toContain(note.signerKey.split('+').slice(4).join('+'));
  });
});

describe('signing and opening', () => {
  const signer = parseSignerKey(note.signerKey);
  const verifier = parseVerifierKey(note.verifierKey);
  const enoch = parseVerifierKey(note.second.verifierKey);

  it('signs the example text byte for byte as Go does', () => {
    expect(signNote(note.text, [signer])).toBe(note.signed);
  });

  it('adds a second signature after the first, as Go does', () => {
    const enochSigner = generateKey(note.second.name, new Uint8Array(32));
    const once = parseNote(note.signed);
    expect(signNote(note.text, [enochSigner], once.signatures)).toBe(`${note.signed}${note.second.signatureLine}`);
  });

  it('opens Go\'s note with its key, and keeps signatures by other keys apart', async () => {
    const opened = await openNote(`${note.text}\n${note.signatureLine}${note.second.signatureLine}`, [verifier]);
    expect(opened.text).toBe(note.text);
    expect(opened.verified.map((s) => s.name)).toEqual(['PeterNeumann']);
    expect(opened.unknown.map((s) => `${s.name}+${s.keyId}`)).toEqual(['EnochRoot+af0cfe78']);
    expect((await openNote(`${note.text}\n${note.signatureLine}${note.second.signatureLine}`, [verifier, enoch])).verified).toHaveLength(2);
  });

  it('refuses a note no given key signed, and one whose signature is wrong', async () => {
    await expect(openNote(note.signed, [enoch])).rejects.toThrow(/no verifiable signatures \(signed by PeterNeumann\+c74f20a3; expected EnochRoot\+af0cfe78\)/);
    await expect(openNote(note.invalidSignature, [verifier])).rejects.toThrow('invalid signature for key PeterNeumann+c74f20a3');
    const otherText = note.signed.replace('cryptography', 'cryptographY');
    await expect(openNote(otherText, [verifier])).rejects.toThrow('invalid signature for key PeterNeumann+c74f20a3');
  });

  it('refuses the messages Go calls malformed', () => {
    for (const bad of note.malformed) expect(() => parseNote(bad), JSON.stringify(bad)).toThrow(/malformed note/);
    expect(() => parseNote(`${note.text}\n${note.signatureLine.repeat(101)}`)).toThrow(/more than 100 signatures/);
  });

  it('drops a repeated signature by the same key', async () => {
    expect((await openNote(`${note.text}\n${note.signatureLine}${note.signatureLine}`, [verifier])).verified).toHaveLength(1);
  });

  it('verifies a bare signature of a text and refuses one by another key', async () => {
    const key = generateKey('alice');
    const other = generateKey('alice');
    const sig = parseNote(signNote('hello\n', [key])).signatures[0]!.signature;
    expect(await verifyText('hello\n', sig, key)).toBe(true);
    expect(await verifyText('hello\n', sig, other)).toBe(false);
    expect(await verifyText('hello!\n', sig, key)).toBe(false);
    expect(await verifyText('hello\n', 'not base64', key)).toBe(false);
  });

  it('refuses key names with spaces or a plus', () => {
    expect(() => generateKey('two words')).toThrow(/cannot name a key/);
    expect(() => generateKey('a+b')).toThrow(/cannot name a key/);
  });
});
