import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKeyName, FsKeyStore, hashKey } from '../../../src/jobs/store/fs-key-store.ts';

describe('FsKeyStore', () => {
  let root: string;
  let n = 0;
  const fresh = () => join(root, `keys-${++n}`);
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'aso-key-store-test-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('makes a key it never stores: the file is named by its SHA-256 and holds only the hash, and the webhook secret', async () => {
    const dir = fresh();
    const store = await FsKeyStore.open(dir);
    const { key, record } = await store.create('  Ada  ');
    expect(key).toMatch(/^aso_sk_[A-Za-z0-9_-]{43}$/);
    const hash = createHash('sha256').update(key).digest('hex');
    expect(record).toEqual({ id: `key_${hash.slice(0, 16)}`, name: 'Ada', hash, createdAt: expect.any(String), revokedAt: null, webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    expect(await readdir(dir)).toEqual([`${hash}.json`]);
    const file = await readFile(join(dir, `${hash}.json`), 'utf8');
    expect(JSON.parse(file)).toEqual(record);
    expect(file).not.toContain(key.slice(7));
    expect((await store.create('Ada')).key).not.toBe(key);
  });

  it('authenticates a live key, and nothing else', async () => {
    const store = await FsKeyStore.open(fresh());
    const { key, record } = await store.create('ci');
    expect(await store.authenticate(key)).toEqual(record);
    expect(await store.authenticate(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await store.authenticate('aso_sk_short')).toBeUndefined();
    expect(await store.authenticate(`../${key}`)).toBeUndefined();
    await store.revoke(record.id);
    expect(await store.authenticate(key)).toBeUndefined();
  });

  it('lists keys oldest first, and sees keys another process made in the same folder', async () => {
    const dir = fresh();
    const service = await FsKeyStore.open(dir);
    const cli = await FsKeyStore.open(dir);
    const first = await service.create('first');
    await new Promise((r) => setTimeout(r, 5));
    const second = await cli.create('second');
    await writeFile(join(dir, 'README.txt'), 'not a key');
    expect((await service.list()).map((r) => r.name)).toEqual(['first', 'second']);
    expect(await service.authenticate(second.key)).toEqual(second.record);
    expect(await cli.authenticate(first.key)).toEqual(first.record);
  });

  it('revokes by id or by a unique name, once', async () => {
    const store = await FsKeyStore.open(fresh());
    const a = await store.create('laptop');
    const b = await store.create('server');
    const revoked = await store.revoke('laptop');
    expect(revoked).toMatchObject({ id: a.record.id, revokedAt: expect.any(String) });
    expect(await store.revoke(a.record.id)).toEqual(revoked);
    expect((await store.revoke(b.record.id)).name).toBe('server');
    expect((await store.list()).every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('refuses an unknown key and a name that several keys share', async () => {
    const store = await FsKeyStore.open(fresh());
    const one = await store.create('twin');
    const two = await store.create('twin');
    await expect(store.revoke('nobody')).rejects.toThrow('no key has the id or name "nobody"');
    const ids = [one.record.id, two.record.id].sort();
    const message = await store.revoke('twin').catch((e: Error) => e.message);
    expect(message).toMatch(/^2 keys are named "twin"; revoke one by its id \(/);
    for (const id of ids) expect(message).toContain(id);
  });

  it('names a key file it cannot read, and will not open a folder with a damaged one', async () => {
    const dir = fresh();
    const store = await FsKeyStore.open(dir);
    const { record } = await store.create('good');
    const bad = join(dir, `${'0'.repeat(64)}.json`);
    await writeFile(bad, '{oops');
    await expect(store.list()).rejects.toThrow(`key file ${bad} is not a key record (is not valid JSON: `);
    await expect(FsKeyStore.open(dir)).rejects.toThrow(`the key store is damaged: key file ${bad} is not a key record (is not valid JSON: `);
    await writeFile(bad, JSON.stringify(record));
    await expect(FsKeyStore.open(dir)).rejects.toThrow(`key file ${bad} is not a key record (its hash is not its file name); restore the file from a backup, or delete it to drop that key`);
    await writeFile(bad, JSON.stringify({ ...record, hash: '0'.repeat(64), revokedAt: 5 }));
    await expect(FsKeyStore.open(dir)).rejects.toThrow('is not a key record ("revokedAt" is neither null nor a string)');
  });
});

describe('checkKeyName', () => {
  it('trims a name of 1 to 64 printable characters', () => {
    expect(checkKeyName('  build bot ')).toBe('build bot');
    expect(checkKeyName('x'.repeat(64))).toBe('x'.repeat(64));
  });

  it('refuses an empty, long or control-character name, quoting it', () => {
    for (const name of ['', '   ', 'x'.repeat(65), 'tab\there', 'bell\u0007']) {
      expect(() => checkKeyName(name)).toThrow(`key name "${name}" must be 1 to 64 printable characters`);
    }
  });
});

describe('hashKey', () => {
  it('is the lowercase hex SHA-256 of the key as UTF-8', () => {
    expect(hashKey('aso_sk_é')).toBe(createHash('sha256').update(Buffer.from('aso_sk_é', 'utf8')).digest('hex'));
  });
});
