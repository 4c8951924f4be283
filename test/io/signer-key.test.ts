/** Private keys from the environment: the key itself or its file, and errors that name the variable and never the key. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { LOG_KEY_VARIABLES, signerKeyFromEnv } from '../../src/io/signer-key.ts';

let dir: string;
const key = generateKey('registry.example.org');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-signer-key-'));
  await writeFile(join(dir, 'log.key'), `${key.signerText}\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('reads the key from the variable or from the file it names, relative to the working folder', async () => {
  expect((await signerKeyFromEnv({ ASO_LOG_KEY: key.signerText }, LOG_KEY_VARIABLES))?.text).toBe(key.text);
  expect((await signerKeyFromEnv({ ASO_LOG_KEY_FILE: 'log.key' }, LOG_KEY_VARIABLES, dir))?.text).toBe(key.text);
  expect(await signerKeyFromEnv({ ASO_LOG_KEY: ' ' }, LOG_KEY_VARIABLES)).toBeNull();
});

it('refuses both at once, a missing file, and a text that is not a signer key, without quoting it', async () => {
  await expect(signerKeyFromEnv({ ASO_LOG_KEY: key.signerText, ASO_LOG_KEY_FILE: 'log.key' }, LOG_KEY_VARIABLES, dir)).rejects.toThrow('ASO_LOG_KEY and ASO_LOG_KEY_FILE are both set; set one of them');
  await expect(signerKeyFromEnv({ ASO_LOG_KEY_FILE: 'missing.key' }, LOG_KEY_VARIABLES, dir)).rejects.toThrow('ASO_LOG_KEY_FILE (missing.key): cannot read the key file: ENOENT');
  const text = key.signerText.slice(0, -4);
  const error = (await signerKeyFromEnv({ ASO_LOG_KEY: text }, LOG_KEY_VARIABLES).catch((e: Error) => e)) as Error;
  expect(error.message).toMatch(/^ASO_LOG_KEY: not a signer key: /);
  // The key's base64 may itself hold '+', so everything after the name and hash is the secret.
  const secret = text.split('+').slice(4).join('+');
  expect(secret.length).toBeGreaterThan(30);
  expect(error.message).not.toContain(secret);
  expect(error.message).not.toContain(secret.slice(0, 12));
  await expect(signerKeyFromEnv({ ASO_LOG_KEY: key.text }, LOG_KEY_VARIABLES)).rejects.toThrow('ASO_LOG_KEY: not a signer key: a signer key starts with PRIVATE+KEY+');
});
