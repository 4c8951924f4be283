/** API keys on the file system: one JSON file per key, named by the SHA-256 of the key, which is never stored. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-file.ts';
import type { ApiKeyRecord, KeyStore } from './types.ts';

/** Every key starts with this, so that it is recognisable in a leaked file. */
export const KEY_PREFIX = 'aso_sk_';
const KEY_PATTERN = /^aso_sk_[A-Za-z0-9_-]{43}$/;
const HASH_FILE = /^[0-9a-f]{64}\.json$/;

/** Lowercase hex SHA-256 of a key. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Checks a key name: 1 to 64 printable characters. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 64 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new Error(`key name "${name}" must be 1 to 64 printable characters`);
  }
  return trimmed;
}

/** A `KeyStore` over `<dir>/<sha256 of key>.json`; several processes (service and CLI) can share it. */
export class FsKeyStore implements KeyStore {
  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<FsKeyStore> {
    await mkdir(dir, { recursive: true });
    return new FsKeyStore(dir);
  }

  async create(name: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const hash = hashKey(key);
    const record: ApiKeyRecord = { id: `key_${hash.slice(0, 16)}`, name: checkKeyName(name), hash, createdAt: new Date().toISOString(), revokedAt: null };
    await writeFile(join(this.dir, `${hash}.json`), `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
    return { key, record };
  }

  async authenticate(key: string): Promise<ApiKeyRecord | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
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
    const all = await this.list();
    let matches = all.filter((r) => r.id === idOrName);
    if (matches.length === 0) matches = all.filter((r) => r.name === idOrName);
    if (matches.length === 0) throw new Error(`no key has the id or name "${idOrName}"`);
    if (matches.length > 1) throw new Error(`${matches.length} keys are named "${idOrName}"; revoke one by its id (${matches.map((m) => m.id).join(', ')})`);
    const record = matches[0]!;
    if (record.revokedAt) return record;
    const revoked: ApiKeyRecord = { ...record, revokedAt: new Date().toISOString() };
    await writeFileAtomic(join(this.dir, `${record.hash}.json`), `${JSON.stringify(revoked, null, 2)}\n`);
    return revoked;
  }

  private async read(name: string): Promise<ApiKeyRecord | undefined> {
    try {
      return JSON.parse(await readFile(join(this.dir, name), 'utf8')) as ApiKeyRecord;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`key file ${join(this.dir, name)} is unreadable: ${(err as Error).message}`);
    }
  }
}
