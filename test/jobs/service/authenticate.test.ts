import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authError, identify } from '../../../src/jobs/service/authenticate.ts';
import { FsKeyStore } from '../../../src/jobs/store/fs-key-store.ts';

describe('identify', () => {
  let dir: string;
  let keys: FsKeyStore;
  let key: string;
  let revoked: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-auth-test-'));
    keys = await FsKeyStore.open(dir);
    key = (await keys.create('live')).key;
    const gone = await keys.create('gone');
    revoked = gone.key;
    await keys.revoke(gone.record.id);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds the live key of a Bearer header, whatever the case of the scheme and the spaces around', async () => {
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `Bearer   ${key}  `]) expect((await identify(keys, header))?.name, header).toBe('live');
  });

  it('finds nothing without a header, with another scheme, or for an unknown or revoked key', async () => {
    for (const header of [undefined, '', key, `Basic ${key}`, `Bearer ${key} extra`, 'Bearer aso_sk_unknown', `Bearer ${revoked}`]) {
      expect(await identify(keys, header), String(header)).toBeNull();
    }
  });
});

describe('authError', () => {
  it('says what is wrong with the header, as a 401 with a Bearer challenge', () => {
    const cases: Array<[string | undefined, string, string]> = [
      [undefined, 'missing_api_key', 'send the header "Authorization: Bearer <API key>"'],
      ['', 'missing_api_key', 'send the header "Authorization: Bearer <API key>"'],
      ['Token abc', 'invalid_authorization', 'the Authorization header must be "Bearer <API key>"'],
      ['Bearer aso_sk_unknown', 'invalid_api_key', 'the API key is unknown or has been revoked'],
    ];
    for (const [header, code, message] of cases) {
      expect(authError(header)).toMatchObject({ status: 401, code, message, headers: { 'www-authenticate': 'Bearer realm="aso-jobs"' } });
    }
  });
});
