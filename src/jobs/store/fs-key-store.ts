/** API keys on the file system: one JSON file per key, named by the SHA-256 of the key, which is never stored. */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-file.ts';
import { hashKey, isWellFormedKey, newKey, newWebhookSecret, pickKey } from './api-key.ts';
import type { ApiKeyRecord, KeyStore } from './types.ts';

export { checkKeyName, hashKey,  } from './api-key.ts';

const HASH_FILE = /^[0-9a-f]{64}\.json$/;

/** A `KeyStore` over `<dir>/<sha256 of key>.json`; several processes (service and CLI) can share it. */
export class FsKeyStore implements KeyStore {
  private constructor(private readonly dir: string) {}

  /** Opens the store in `dir`, reading every key file first: a damaged one stops the start, naming the file. */
  static async open(dir: string): Promise<FsKeyStore> {
    await mkdir(dir, { recursive: true });
    const store = new FsKeyStore(dir);
    for (const name of await readdir(dir)) {
      if (!HASH_FILE.test(name)) continue;
      try {
        await store.read(name);
      } catch (err) {
        throw new Error(`the key store is damaged: ${(err as Error).message}; restore the file from a backup, or delete it to drop that key`);
      }
    }
    return store;
  }

  async create(name: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const created = newKey(name);
    await writeFile(join(this.dir, `${created.record.hash}.json`), `${JSON.stringify(created.record, null, 2)}\n`, { flag: 'wx' });
    return created;
  }

  async authenticate(key: string): Promise<ApiKeyRecord | undefined> {
    if (!isWellFormedKey(key)) return undefined;
    const record = await this.read(`${hashKey(key)}.json`);
    return record && record.revokedAt === null ? record : undefined;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    for (const name of await readdir(this.dir)) {
      if (!HASH_FILE.test(name)) continue;
      const record = await this.read(name);
      if (record) records.push(record);
    }
    return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }

  async revoke(idOrName: string): Promise<ApiKeyRecord> {
    const record = pickKey(await this.list(), idOrName);
    if (record.revokedAt) return record;
    const revoked: ApiKeyRecord = { ...record, revokedAt: new Date().toISOString() };
    await writeFileAtomic(join(this.dir, `${record.hash}.json`), `${JSON.stringify(revoked, null, 2)}\n`);
    return revoked;
  }

  async webhookSecret(id: string): Promise<string> {
    const record = (await this.list()).find((r) => r.id === id);
    if (!record) throw new Error(`no key has the id "${id}"`);
    if (record.webhookSecret) return record.webhookSecret;
    const path = join(this.dir, `${record.hash}.json`);
    await writeFileAtomic(path, `${JSON.stringify({ ...record, webhookSecret: newWebhookSecret() }, null, 2)}\n`);
    // Read back: when two processes give an old key its secret at once, the one stored is the one both use.
    return (await this.read(`${record.hash}.json`))!.webhookSecret!;
  }

  async close(): Promise<void> {}

  private async read(name: string): Promise<ApiKeyRecord | undefined> {
    const path = join(this.dir, name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`key file ${path} is unreadable: ${(err as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`key file ${path} is not a key record (is not valid JSON: ${(err as Error).message})`);
    }
    const why = recordProblem(value, name);
    if (why) throw new Error(`key file ${path} is not a key record (${why})`);
    return value as ApiKeyRecord;
  }
}

/** Why a parsed key file is not the record of the key its name is the hash of, or undefined. */
function recordProblem(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const r = value as Record<string, unknown>;
  for (const field of ['id', 'name', 'hash', 'createdAt'] as const) if (typeof r[field] !== 'string') return `"${field}" is not a string`;
  if (r.revokedAt !== null && typeof r.revokedAt !== 'string') return '"revokedAt" is neither null nor a string';
  if (r.webhookSecret !== undefined && (typeof r.webhookSecret !== 'string' || !r.webhookSecret.startsWith('whsec_'))) return '"webhookSecret" is not a whsec_ secret';
  if (`${r.hash as string}.json` !== name) return 'its hash is not its file name';
  return undefined;
}
