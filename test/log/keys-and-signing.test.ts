/** Key pairs, publisher signatures by hand, and what `npm run check` makes of signatures and keys. */
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { runLog } from '../../scripts/log.ts';
import { parseCheckpoint } from '@aso-registry/core/log/checkpoint';
import { signPublication } from '@aso-registry/core/log/publication-signature';
import { parseVerifierKey } from '@aso-registry/core/log/signed-note';
import { generateKey, parseSignerKey } from '@aso-registry/core/log/note-signer';
import { repoRoot } from '../support/build-site.ts';
import { gitRegistry, type GitRegistry } from '../ledger/git-registry.ts';
import { REGISTRY_URL } from '../registry/fixture.ts';

const run = promisify(execFile);
let repo: GitRegistry | undefined;

afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** A git registry with alice's key registered; returns the path of her private key. */
async function withAlice(): Promise<{ repo: GitRegistry; aliceKey: string }> {
  repo = await gitRegistry();
  const aliceKey = join(repo.repo, 'keys', 'alice.key');
  const out = await runLog(['keygen', '--publisher', 'alice', '--registry', repo.root, '--out', aliceKey], {}, repo.repo);
  expect(out.code, out.stderr).toBe(0);
  return { repo, aliceKey };
}

const log = (r: GitRegistry, args: string[], env: Record<string, string> = {}) => runLog([...args, '--registry', r.root], { REGISTRY_URL, ...env }, r.repo);
const check = (r: GitRegistry, ...args: string[]) => runCheck(['--registry', r.root, ...args], { REGISTRY_URL }, r.repo);

describe('npm run log -- keygen', () => {
  it('writes the log key pair: registry/log.pub and a private key only its owner reads, never overwritten', async () => {
    repo = await gitRegistry();
    const out = await log(repo, ['keygen']);
    expect(out.code, out.stderr).toBe(0);
    const pub = parseVerifierKey(await repo.read('log.pub'));
    expect(pub.name).toBe('registry.test');
    expect(out.stdout).toContain(`log key registry.test+${pub.keyId}\n  public key in registry/log.pub (commit it; clients pin it)\n  private key in .aso-keys/log.key`);
    const privateFile = join(repo.repo, '.aso-keys', 'log.key');
    expect(parseSignerKey(await readFile(privateFile, 'utf8')).text).toBe(pub.text);
    expect((await stat(privateFile)).mode & 0o777).toBe(0o600);
    const again = await log(repo, ['keygen']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/registry\/log\.pub exists already: a new log key makes every checkpoint signed so far unverifiable/);
    expect(parseVerifierKey(await repo.read('log.pub')).text).toBe(pub.text);
  });

  it('adds a publisher\'s new key beside the old one, endorsed by it, so that old signatures keep verifying', async () => {
    const { repo: r, aliceKey } = await withAlice();
    const second = await log(r, ['keygen', '--publisher', 'alice', '--out', join(r.repo, 'keys', 'alice-2.key')], { ASO_PUBLISHER_KEY_FILE: aliceKey });
    expect(second.code, second.stderr).toBe(0);
    const lines = (await r.read('publishers/alice.pub')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^# endorsed by alice\+[0-9a-f]{8} \S+$/);
    expect((await check(r)).code).toBe(0);
  });

  it('keeps private keys out of git: .gitignore covers .aso-keys/', async () => {
    const { stdout } = await run('git', ['check-ignore', '-v', '.aso-keys/log.key'], { cwd: repoRoot });
    expect(stdout).toMatch(/^\.gitignore:\d+:\.aso-keys\/\t\.aso-keys\/log\.key$/m);
  });
});

describe('signing a version added by hand', () => {
  it('signs publication.json before the ledger line, and refuses once the version is published', async () => {
    const { repo: r, aliceKey } = await withAlice();
    await r.addVersion({ id: 'chair', version: '1.0.0', editPublication: (p) => (p.publisher = 'alice') });
    const signed = await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY_FILE: aliceKey });
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/^chair@1\.0\.0: signed by alice\+[0-9a-f]{8} \(registry\/objects\/chair\/versions\/1\.0\.0\/publication\.json\)\n$/);
    const pub = JSON.parse(await r.read('objects/chair/versions/1.0.0/publication.json')) as Record<string, string>;
    expect(Object.keys(pub)).toEqual(['publicationId', 'publishedAt', 'publisher', 'recordHash', 'keyId', 'signature']);
    expect((await r.ledger('append', 'chair@1.0.0')).code).toBe(0);
    expect(await r.read('ledger.jsonl')).toContain(`"publisher":"alice","keyId":"${pub.keyId}","signature":"${pub.signature}"`);
    expect((await check(r)).code).toBe(0);
    const again = await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY_FILE: aliceKey });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('chair@1.0.0 is in the ledger already: it is published and its publication record never changes\n');
  });

  it('refuses another publisher\'s version, an unregistered key, and a missing key', async () => {
    const { repo: r, aliceKey } = await withAlice();
    await r.addVersion({ id: 'chair', version: '1.0.0' });
    const other = await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY_FILE: aliceKey });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/publication\.json: the publisher is "test-publisher", but the key is alice's/);
    const stranger = generateKey('test-publisher');
    const unregistered = await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY: stranger.signerText });
    expect(unregistered.code).toBe(1);
    expect(unregistered.stderr).toBe('chair@1.0.0: "test-publisher" signed chair@1.0.0, but the registry has no publishers/test-publisher.pub: commit the publisher\'s public key there\n');
    const none = await log(r, ['sign', 'chair@1.0.0']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^sign needs the publisher's key: set ASO_PUBLISHER_KEY or ASO_PUBLISHER_KEY_FILE/);
    const broken = await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY: 'PRIVATE+KEY+alice+00000000+AAAA' });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^ASO_PUBLISHER_KEY: not a signer key: /);
    expect(broken.stderr).not.toContain('AAAA');
  });
});

describe('npm run check and signatures', () => {
  /** Writes chair@1.0.0 signed with `key` (default: alice's registered key), then appends its ledger line. */
  async function signedBy(r: GitRegistry, aliceKey: string, edit?: (p: Record<string, string>) => void): Promise<void> {
    await r.addVersion({ id: 'chair', version: '1.0.0', editPublication: (p) => (p.publisher = 'alice') });
    expect((await log(r, ['sign', 'chair@1.0.0'], { ASO_PUBLISHER_KEY_FILE: aliceKey })).code).toBe(0);
    if (edit) {
      const file = r.path('objects/chair/versions/1.0.0/publication.json');
      const pub = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      edit(pub);
      await writeFile(file, `${JSON.stringify(pub, null, 2)}\n`);
    }
  }

  it('refuses a signature by another key of the same name', async () => {
    const { repo: r, aliceKey } = await withAlice();
    const mallory = generateKey('alice');
    let recordHash = '';
    await signedBy(r, aliceKey, (p) => {
      recordHash = p.recordHash!;
      Object.assign(p, signPublication({ id: 'chair', version: '1.0.0', recordHash }, mallory));
    });
    const out = await check(r);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(new RegExp(`^registry/objects/chair/versions/1\\.0\\.0/publication\\.json: /keyId: no key alice\\+${mallory.keyId} is registered for publisher "alice" \\(registered: [0-9a-f]{8}\\)\n$`));
  });

  it('refuses a signature that does not verify, half a signature, and a signer without a key file', async () => {
    const { repo: r, aliceKey } = await withAlice();
    await signedBy(r, aliceKey, (p) => (p.signature = `${p.signature!.slice(0, 10)}${p.signature![10] === 'A' ? 'B' : 'A'}${p.signature!.slice(11)}`));
    expect((await check(r)).stderr).toMatch(/publication\.json: \/signature: the signature of chair@1\.0\.0 does not verify with key alice\+[0-9a-f]{8}\n$/);
    await signedBy(r, aliceKey, (p) => delete p.signature);
    expect((await check(r)).stderr).toMatch(/publication\.json: file: keyId and signature come together: a signed publication has both\n$/);
    await signedBy(r, aliceKey, () => {});
    await writeFile(r.path('publishers/alice.pub'), '');
    const gone = await check(r);
    expect(gone.stderr).toContain('registry/publishers/alice.pub: file: holds no key (one verifier key per line)\n');
    expect(gone.stderr).toContain('publication.json: /publisher: "alice" signed chair@1.0.0, but the registry has no publishers/alice.pub');
  });

  it('refuses a ledger line whose signature is not the publication record\'s', async () => {
    const { repo: r, aliceKey } = await withAlice();
    await signedBy(r, aliceKey);
    expect((await r.ledger('append', 'chair@1.0.0')).code).toBe(0);
    const line = (await r.read('ledger.jsonl')).trimEnd();
    const unsigned = line.replace(/,"publisher":"alice","keyId":"[0-9a-f]{8}","signature":"[^"]+"/, '');
    await writeFile(r.path('ledger.jsonl'), `${unsigned}\n`);
    const out = await check(r);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/registry\/ledger\.jsonl: line 1: \(chair@1\.0\.0\) has no signature, but registry\/objects\/chair\/versions\/1\.0\.0\/publication\.json has the signature of key [0-9a-f]{8}: the line and the record must carry the same signature\n/);
  });

  it('with --require-signatures and --base, refuses an unsigned new version and keeps old unsigned ones valid', async () => {
    const { repo: r, aliceKey } = await withAlice();
    await r.publish({ id: 'table', version: '1.0.0' });
    await r.commit('publish table 1.0.0 unsigned');
    await r.publish({ id: 'table', version: '1.1.0' });
    const refused = await r.check('HEAD', '--require-signatures');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^registry\/objects\/table\/versions\/1\.1\.0\/publication\.json: \/signature: is required: table@1\.1\.0 is not signed, and --require-signatures refuses an unsigned new version/);
    expect(refused.stderr).not.toContain('1.0.0');
    await r.git('checkout', '-q', '--', '.');
    await r.git('clean', '-qfd', 'registry/objects/table/versions/1.1.0');
    await signedBy(r, aliceKey);
    expect((await r.ledger('append', 'chair@1.0.0')).code).toBe(0);
    const out = await r.check('HEAD', '--require-signatures');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
  });
});

describe('the registry\'s keys', () => {
  it('refuses a log.pub that is not one verifier key, and publisher files that are not <name>.pub with that name\'s keys', async () => {
    repo = await gitRegistry();
    await repo.addVersion({ id: 'chair', version: '1.0.0' });
    await repo.write('log.pub', 'not a key\n');
    await repo.write('publishers/bob.pub', `${generateKey('carol').text}\n`);
    await repo.write('publishers/notes.txt', 'x');
    const out = await check(repo);
    expect(out.code).toBe(1);
    expect(out.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'registry/log.pub: file: a verifier key is <name>+<8 hex digits>+<base64 key>',
      'registry/publishers/bob.pub: file: line 1: the key is named "carol", but the file is the publisher "bob"\'s',
      'registry/publishers/notes.txt: file: unknown file in publishers/; expected only <publisher>.pub files (a name without spaces or "+")',
    ]);
  });

  it('prints the checkpoint, unsigned without a key, and refuses a log key that is not registry/log.pub\'s', async () => {
    repo = await gitRegistry();
    await repo.publish({ id: 'chair', version: '1.0.0' });
    const unsigned = await log(repo, ['checkpoint']);
    expect(unsigned.code).toBe(0);
    expect(parseCheckpoint(unsigned.stdout)).toMatchObject({ origin: 'registry.test', size: 1 });
    expect(unsigned.stderr).toBe('unsigned: no log key in the environment\n');
    const stray = generateKey('registry.test');
    const noPub = await log(repo, ['checkpoint'], { ASO_LOG_KEY: stray.signerText });
    expect(noPub.code).toBe(1);
    expect(noPub.stderr).toBe(`ASO_LOG_KEY holds the key registry.test+${stray.keyId}, but the registry has no log.pub: commit its public key, ${stray.text}, as registry/log.pub\n`);
    expect((await log(repo, ['keygen'])).code).toBe(0);
    const wrong = await log(repo, ['checkpoint'], { ASO_LOG_KEY: stray.signerText });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^ASO_LOG_KEY holds the key registry\.test\+[0-9a-f]{8}, but registry\/log\.pub is registry\.test\+[0-9a-f]{8}: sign with the key of registry\/log\.pub\n$/);
    const signed = await log(repo, ['checkpoint'], { ASO_LOG_KEY_FILE: join(repo.repo, '.aso-keys', 'log.key') });
    expect(signed.code).toBe(0);
    // The extension line commits to the retractions: none yet, the SHA-256 of no bytes.
    expect(signed.stdout).toMatch(/^registry\.test\n1\n\S+=\nretractions 0 sha256-47DEQpj8HBSa\+\/TImW\+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n— registry\.test \S+\n$/);
  });
});
