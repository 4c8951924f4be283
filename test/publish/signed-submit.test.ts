/** npm run submit with a publisher key: the new version is signed, its ledger line carries the signature, and bad keys are refused first. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { runLog } from '../../scripts/log.ts';
import { publicationSignatureProblem } from '@aso-registry/core/log/publication-signature';
import { generateKey, parseSignerKey } from '@aso-registry/core/log/note-signer';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { createRepo, photoPng, publish, REGISTRY_URL, snapshot, startService, type TestRepo } from './helpers.ts';

let svc: Awaited<ReturnType<typeof startService>>;
let api: { url: string; key: string };
let repo: TestRepo;
let aliceKey: string;

beforeAll(async () => {
  svc = await startService();
  api = { url: svc.service.url, key: svc.key };
  repo = await createRepo();
  aliceKey = join(repo.stateDir, 'alice.key');
  const made = await runLog(['keygen', '--publisher', 'alice', '--out', aliceKey], { REGISTRY_URL }, repo.dir);
  expect(made.code, made.stderr).toBe(0);
  await writeFile(repo.path('photo.png'), await photoPng());
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'alice publishes here');
});
afterAll(async () => {
  await svc?.close();
  await repo?.remove();
});

describe('submit with ASO_PUBLISHER_KEY_FILE', () => {
  it('signs the new version under the key\'s name, in publication.json and in its ledger line', async () => {
    const env = { REGISTRY_URL, ASO_API_KEY: api.key, ASO_PUBLISHER_KEY_FILE: aliceKey };
    const result = await publish(repo, api, { image: 'photo.png', model: 'card', object: 'signed-card', env });
    const pub = JSON.parse(await readFile(repo.path('registry', 'objects', 'signed-card', 'versions', '1.0.0', 'publication.json'), 'utf8')) as PublicationRecord;
    const key = parseSignerKey(await readFile(aliceKey, 'utf8'));
    expect(pub).toMatchObject({ publisher: 'alice', keyId: key.keyId, recordHash: result.recordHash });
    expect(await publicationSignatureProblem({ id: 'signed-card', version: '1.0.0', recordHash: pub.recordHash }, { publisher: 'alice', keyId: pub.keyId!, signature: pub.signature! }, [key])).toBeNull();
    const line = (await readFile(repo.path('registry', 'ledger.jsonl'), 'utf8')).trimEnd().split('\n').at(-1)!;
    expect(JSON.parse(line)).toMatchObject({ id: 'signed-card', publisher: 'alice', keyId: key.keyId, signature: pub.signature });
    const checked = await runCheck(['--require-signatures'], { REGISTRY_URL }, repo.dir);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    await repo.git('checkout', '-q', 'main');
  });

  it('refuses --publisher naming someone else, and a key the registry does not list, leaving everything as it was', async () => {
    const before = await snapshot(repo);
    const env = { REGISTRY_URL, ASO_API_KEY: api.key, ASO_PUBLISHER_KEY_FILE: aliceKey };
    await expect(publish(repo, api, { image: 'photo.png', model: 'card', object: 'other-card', publisher: 'bob', env })).rejects.toThrow(
      /--publisher bob is not the name of the signing key \(alice\+[0-9a-f]{8}\); a signed version is published under its key's name/,
    );
    const carol = generateKey('carol');
    await expect(publish(repo, api, { image: 'photo.png', model: 'card', object: 'other-card', env: { ...env, ASO_PUBLISHER_KEY_FILE: '', ASO_PUBLISHER_KEY: carol.signerText } })).rejects.toThrow(
      /publication\.json: \/publisher: "carol" signed other-card@1\.0\.0, but the registry has no publishers\/carol\.pub/,
    );
    expect(await snapshot(repo)).toBe(before);
  });
});
