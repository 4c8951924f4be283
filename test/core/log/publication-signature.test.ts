/** Publisher signatures: the signed text, checking against registered keys, and the publishers' key files. */
import { describe, expect, it } from 'vitest';
import { parsePublisherKeys, publicationNote, publicationSignatureProblem, publicationText, signPublication } from '@aso-registry/core/log/publication-signature';
import { openNote, parseVerifierKey } from '@aso-registry/core/log/signed-note';
import { generateKey } from '@aso-registry/core/log/note-signer';

const version = { id: 'oak-chair', version: '1.2.0', recordHash: 'sha256-XqRtSqpmw7WKtPfMUsji7IAYwmca0wRABbEczDBO5/8=' };

describe('a publication signature', () => {
  const alice = generateKey('alice');
  const mallory = generateKey('alice');

  it('signs a text that names the context, the version and its record hash', () => {
    expect(publicationText(version)).toBe(`aso/publication/v1\noak-chair@1.2.0\n${version.recordHash}\n`);
    const sig = signPublication(version, alice);
    expect(sig.publisher).toBe('alice');
    expect(sig.keyId).toBe(alice.keyId);
    expect(Buffer.from(sig.signature, 'base64')).toHaveLength(64);
  });

  it('verifies with the publisher\'s registered key, and is a signed note any note reader opens', async () => {
    const sig = signPublication(version, alice);
    expect(await publicationSignatureProblem(version, sig, [parseVerifierKey(alice.text)])).toBeNull();
    expect((await openNote(publicationNote(version, sig), [alice])).verified).toHaveLength(1);
  });

  it('fails for another version, another record hash, or another key of the same name', async () => {
    const sig = signPublication(version, alice);
    expect(await publicationSignatureProblem({ ...version, version: '1.2.1' }, sig, [alice])).toMatch(/does not verify with key alice\+/);
    expect(await publicationSignatureProblem({ ...version, recordHash: 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }, sig, [alice])).toMatch(/does not verify/);
    const forged = signPublication(version, mallory);
    expect(await publicationSignatureProblem(version, forged, [alice])).toMatch(`no key alice+${mallory.keyId} is registered for publisher "alice" (registered: ${alice.keyId})`);
    expect(await publicationSignatureProblem(version, { ...forged, keyId: alice.keyId }, [alice])).toMatch(/does not verify/);
  });
});

describe('a publisher\'s key file', () => {
  const a = generateKey('alice');
  const b = generateKey('alice');

  it('lists one key per line, comments and blank lines allowed', () => {
    expect(parsePublisherKeys(`# alice's keys\n${a.text}\n\n${b.text}\n`, 'alice').map((k) => k.keyId)).toEqual([a.keyId, b.keyId]);
  });

  it('refuses a key of another name, a repeated key, a bad key, and an empty file', () => {
    expect(() => parsePublisherKeys(generateKey('bob').text, 'alice')).toThrow(/line 1: the key is named "bob", but the file is the publisher "alice"'s/);
    expect(() => parsePublisherKeys(`${a.text}\n${a.text}\n`, 'alice')).toThrow(/line 2: key .* is listed twice/);
    expect(() => parsePublisherKeys(`${a.text.slice(0, -2)}\n`, 'alice')).toThrow(/line 1: /);
    expect(() => parsePublisherKeys('# nothing\n', 'alice')).toThrow(/holds no key/);
  });
});
