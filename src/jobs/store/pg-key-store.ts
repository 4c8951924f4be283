/** API keys in Postgres: the SHA-256 of each key, never the key. */
import type pg from 'pg';
import { hashKey, isWellFormedKey, newKey, newWebhookSecret, pickKey } from './api-key.ts';
import type { ApiKeyRecord, KeyStore } from './types.ts';

interface KeyRow {
  id: string;
  name: string;
  hash: string;
  created_at: Date;
  revoked_at: Date | null;
  webhook_secret: string | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  const record: ApiKeyRecord = { id: row.id, name: row.name, hash: row.hash, createdAt: row.created_at.toISOString(), revokedAt: row.revoked_at?.toISOString() ?? null };
  return row.webhook_secret ? { ...record, webhookSecret: row.webhook_secret } : record;
}

/** A `KeyStore` on `aso.api_keys`; `onClose` releases what the store was opened with. */
export class PgKeyStore implements KeyStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async create(name: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const created = newKey(name);
    const { id, hash, createdAt, webhookSecret } = created.record;
    await this.pool.query('INSERT INTO aso.api_keys (id, name, hash, created_at, webhook_secret) VALUES ($1, $2, $3, $4, $5)', [id, created.record.name, hash, createdAt, webhookSecret]);
    return created;
  }

  async authenticate(key: string): Promise<ApiKeyRecord | undefined> {
    if (!isWellFormedKey(key)) return undefined;
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM aso.api_keys WHERE hash = $1 AND revoked_at IS NULL', [hashKey(key)]);
    return rows[0] && toRecord(rows[0]);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM aso.api_keys ORDER BY created_at, id');
    return rows.map(toRecord);
  }

  async revoke(idOrName: string): Promise<ApiKeyRecord> {
    const record = pickKey(await this.list(), idOrName);
    if (record.revokedAt) return record;
    const { rows } = await this.pool.query<KeyRow>('UPDATE aso.api_keys SET revoked_at = coalesce(revoked_at, clock_timestamp()) WHERE id = $1 RETURNING *', [record.id]);
    return toRecord(rows[0]!);
  }

  async webhookSecret(id: string): Promise<string> {
    // One statement: a key made before webhooks gets its secret once, whichever process asks first.
    const { rows } = await this.pool.query<{ webhook_secret: string }>('UPDATE aso.api_keys SET webhook_secret = coalesce(webhook_secret, $2) WHERE id = $1 RETURNING webhook_secret', [id, newWebhookSecret()]);
    if (!rows[0]) throw new Error(`no key has the id "${id}"`);
    return rows[0].webhook_secret;
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
