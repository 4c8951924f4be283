/** `npm run check -- --base <ref>` and publisher key files, in real git repositories: append-only, new keys endorsed by an old one. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLog } from '../../scripts/log.ts';
import { endorseKey } from '@aso-registry/core/log/key-endorsement';
import { parseVerifierKey, type SignerKey } from '@aso-registry/core/log/signed-note';
import { generateKey, parseSignerKey } from '@aso-registry/core/log/note-signer';
import { REGISTRY_URL } from '../registry/fixture.ts';
import { gitRegistry, type GitRegistry } from './git-registry.ts';

const APPEND_ONLY = "a publisher's key file is append-only (add keys at the end; never edit, remove or reorder a line), so that what each key signed keeps verifying";

let repos: GitRegistry[] = [];
afterEach(async () => {
  await Promise.all(repos.map((r) => r.cleanup()));
  repos = [];
});

const log = (r: GitRegistry, args: string[], env: Record<string, string> = {}) => runLog([...args, '--registry', r.root], { REGISTRY_URL, ...env }, r.repo);
const errors = (stderr: string): string[] => stderr.trim().split('\n').filter(Boolean);

/** Writes `id@version` published by `publisher`, signed with `signer`, and appends its ledger line. */
async function publishSigned(r: GitRegistry, id: string, version: string, publisher: string, signer: { ASO_PUBLISHER_KEY?: string; ASO_PUBLISHER_KEY_FILE?: string }): Promise<void> {
  await r.addVersion({ id, version, editPublication: (p) => (p.publisher = publisher) });
  const signed = await log(r, ['sign', `${id}@${version}`], signer as Record<string, string>);
  expect(signed.code, signed.stderr).toBe(0);
  const appended = await r.ledger('append', `${id}@${version}`);
  expect(appended.code, appended.stderr).toBe(0);
}

/** A repository whose main branch has alice's key and chair@1.0.0 signed with it. */
async function aliceSigned(): Promise<{ repo: GitRegistry; aliceKey: string; alice: SignerKey }> {
  const repo = await gitRegistry();
  repos.push(repo);
  const aliceKey = join(repo.repo, 'keys', 'alice.key');
  const made = await log(repo, ['keygen', '--publisher', 'alice', '--out', aliceKey]);
  expect(made.code, made.stderr).toBe(0);
  await publishSigned(repo, 'chair', '1.0.0', 'alice', { ASO_PUBLISHER_KEY_FILE: aliceKey });
  await repo.commit('alice publishes chair 1.0.0');
  return { repo, aliceKey, alice: parseSignerKey(await readFile(aliceKey, 'utf8')) };
}

describe('a key appended to an existing publisher', () => {
  it('refuses a key slipped into alice.pub that signs a new version as alice, naming the file, the line and the key', async () => {
    const { repo } = await aliceSigned();
    const mallory = generateKey('alice');
    await writeFile(repo.path('publishers/alice.pub'), `${await repo.read('publishers/alice.pub')}${mallory.text}\n`);
    await publishSigned(repo, 'table', '1.0.0', 'alice', { ASO_PUBLISHER_KEY: mallory.signerText });
    await repo.commit('publish table as alice');
    const out = await repo.check('HEAD~1', '--require-signatures');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^registry/publishers/alice\\.pub: line 2: key alice\\+${mallory.keyId} was added since HEAD~1 without an endorsement: ` +
            `a new key of "alice" must be endorsed by a key "alice" had at HEAD~1 \\(alice\\+[0-9a-f]{8}\\); run npm run log -- keygen --publisher alice`,
        ),
      ),
    ]);
  });

  it('refuses an endorsement by a key that is itself new, and one that does not verify', async () => {
    const { repo, alice } = await aliceSigned();
    const mallory = generateKey('alice');
    const second = generateKey('alice');
    const base = await repo.read('publishers/alice.pub');
    // mallory endorses a key of its own: not a key alice had at the base.
    await writeFile(repo.path('publishers/alice.pub'), `${base}${mallory.text}\n${endorseKey(mallory, mallory)}\n`);
    let found = errors((await repo.check('HEAD')).stderr);
    expect(found).toEqual([
      `registry/publishers/alice.pub: line 3: the endorsement of alice+${mallory.keyId} is by alice+${mallory.keyId}, which is not a key "alice" had at HEAD (alice+${alice.keyId})`,
    ]);
    // alice's endorsement of another key, copied under mallory's.
    await writeFile(repo.path('publishers/alice.pub'), `${base}${mallory.text}\n${endorseKey(second, alice)}\n`);
    found = errors((await repo.check('HEAD')).stderr);
    expect(found).toEqual([`registry/publishers/alice.pub: line 3: the endorsement of alice+${mallory.keyId} by alice+${alice.keyId} does not verify`]);
    await writeFile(repo.path('publishers/alice.pub'), `${base}${mallory.text}\n# endorsed by alice+${alice.keyId} not-a-signature\n`);
    found = errors((await repo.check('HEAD')).stderr);
    expect(found).toEqual(['registry/publishers/alice.pub: line 3: an endorsement is "# endorsed by <name>+<8 hex digits> <base64 of a 64-byte signature>"']);
  });

  it('passes a rotation endorsed by the old key: keygen with the old key set, then a version signed by the new one', async () => {
    const { repo, aliceKey, alice } = await aliceSigned();
    const newKey = join(repo.repo, 'keys', 'alice-2.key');
    const refused = await log(repo, ['keygen', '--publisher', 'alice', '--out', newKey]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/publishers\/alice\.pub has keys already \(alice\+[0-9a-f]{8}\): a new key must be endorsed by one of them; set ASO_PUBLISHER_KEY_FILE/);
    await expect(readFile(newKey)).rejects.toThrow();
    const made = await log(repo, ['keygen', '--publisher', 'alice', '--out', newKey], { ASO_PUBLISHER_KEY_FILE: aliceKey });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`  endorsed by alice+${alice.keyId}\n`);
    const lines = (await repo.read('publishers/alice.pub')).trimEnd().split('\n');
    const rotated = parseVerifierKey(lines[1]!);
    expect(lines).toEqual([alice.text, rotated.text, endorseKey(rotated, alice)]);
    await publishSigned(repo, 'table', '1.0.0', 'alice', { ASO_PUBLISHER_KEY_FILE: newKey });
    await repo.commit('rotate alice\'s key; publish table 1.0.0 with it');
    const out = await repo.check('HEAD~1', '--require-signatures');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
  });
});

describe('a key of the base', () => {
  it('refuses removing a key that signed a version, or the whole file, naming what it signed', async () => {
    const { repo, aliceKey, alice } = await aliceSigned();
    const second = join(repo.repo, 'keys', 'alice-2.key');
    expect((await log(repo, ['keygen', '--publisher', 'alice', '--out', second], { ASO_PUBLISHER_KEY_FILE: aliceKey })).code).toBe(0);
    await repo.commit('a second key for alice');
    const rotated = parseVerifierKey((await repo.read('publishers/alice.pub')).split('\n')[1]!);
    const [, ...rest] = (await repo.read('publishers/alice.pub')).split('\n');
    await writeFile(repo.path('publishers/alice.pub'), rest.join('\n'));
    await repo.commit('drop alice\'s first key');
    let out = await repo.check('HEAD~1');
    expect(out.code).toBe(1);
    expect(errors(out.stderr)).toEqual([
      // The tree check sees it too: chair@1.0.0 no longer verifies.
      `registry/objects/chair/versions/1.0.0/publication.json: /keyId: no key alice+${alice.keyId} is registered for publisher "alice" (registered: ${rotated.keyId})`,
      `registry/publishers/alice.pub: line 1: key alice+${alice.keyId} was removed since HEAD~1 (it signed chair@1.0.0); ${APPEND_ONLY}`,
    ]);
    await rm(repo.path('publishers/alice.pub'));
    out = await repo.check('HEAD~1');
    expect(errors(out.stderr)).toContain(
      `registry/publishers/alice.pub: file: removed since HEAD~1, with its keys alice+${alice.keyId} (it signed chair@1.0.0), alice+${rotated.keyId}; ${APPEND_ONLY}`,
    );
  });

  it('refuses a key line edited in place, even one that signed nothing', async () => {
    const { repo, aliceKey, alice } = await aliceSigned();
    expect((await log(repo, ['keygen', '--publisher', 'alice', '--out', join(repo.repo, 'keys', 'alice-2.key')], { ASO_PUBLISHER_KEY_FILE: aliceKey })).code).toBe(0);
    await repo.commit('a second key for alice');
    const lines = (await repo.read('publishers/alice.pub')).split('\n');
    const old = parseVerifierKey(lines[1]!);
    const swapped = generateKey('alice');
    lines[1] = swapped.text;
    await writeFile(repo.path('publishers/alice.pub'), lines.join('\n'));
    const found = errors((await repo.check('HEAD')).stderr);
    // The old key's endorsement, left below the swapped key, does not endorse it.
    expect(found).toEqual([
      `registry/publishers/alice.pub: line 2: key alice+${old.keyId} was removed since HEAD; ${APPEND_ONLY}`,
      `registry/publishers/alice.pub: line 3: the endorsement of alice+${swapped.keyId} by alice+${alice.keyId} does not verify`,
    ]);
  });
});

describe('a new publisher', () => {
  it('passes a new key file and a version signed with it, while a key added beside alice\'s in the same change is refused', async () => {
    const { repo } = await aliceSigned();
    const bobKey = join(repo.repo, 'keys', 'bob.key');
    expect((await log(repo, ['keygen', '--publisher', 'bob', '--out', bobKey])).code).toBe(0);
    await publishSigned(repo, 'table', '1.0.0', 'bob', { ASO_PUBLISHER_KEY_FILE: bobKey });
    await repo.commit('bob publishes table 1.0.0');
    const out = await repo.check('HEAD~1', '--require-signatures');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const stranger = generateKey('alice');
    await writeFile(repo.path('publishers/alice.pub'), `${await repo.read('publishers/alice.pub')}${stranger.text}\n`);
    const refused = await repo.check('HEAD~1', '--require-signatures');
    expect(refused.code).toBe(1);
    expect(errors(refused.stderr)).toEqual([expect.stringMatching(new RegExp(`^registry/publishers/alice\\.pub: line 2: key alice\\+${stranger.keyId} was added since HEAD~1 without an endorsement`))]);
  });
});
