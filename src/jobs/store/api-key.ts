/** API keys: their shape, their hash and their names, shared by the key stores. */
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from './types.ts';

/** Every key starts with this, so that it is recognisable in a leaked file. */
const KEY_PREFIX = 'aso_sk_';
const KEY_PATTERN = /^aso_sk_[A-Za-z0-9_-]{43}$/;

/** Lowercase hex SHA-256 of a key. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when `key` has the shape of a key this service issues. */
export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Checks a key name: 1 to 64 printable characters. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 64 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new Error(`key name "${name}" must be 1 to 64 printable characters`);
  }
  return trimmed;
}

/** A new key and the record that stores only its hash, with the secret that signs its webhook deliveries. */
export function newKey(name: string): { key: string; record: ApiKeyRecord } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const hash = hashKey(key);
  return { key, record: { id: `key_${hash.slice(0, 16)}`, name: checkKeyName(name), hash, createdAt: new Date().toISOString(), revokedAt: null, webhookSecret: newWebhookSecret() } };
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64 (the specification asks for 24 to 64). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The one record `idOrName` names among `all`: an id first, else a unique name. */
export function pickKey(all: readonly ApiKeyRecord[], idOrName: string): ApiKeyRecord {
  let matches = all.filter((r) => r.id === idOrName);
  if (matches.length === 0) matches = all.filter((r) => r.name === idOrName);
  if (matches.length === 0) throw new Error(`no key has the id or name "${idOrName}"`);
  if (matches.length > 1) throw new Error(`${matches.length} keys are named "${idOrName}"; revoke one by its id (${matches.map((m) => m.id).join(', ')})`);
  return matches[0]!;
}
