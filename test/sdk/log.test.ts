/** The SDK's log checks against the sample site, whose checkpoint is unsigned (its private key is not in the repository). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCheckpoint } from '@aso-registry/core/log/checkpoint';
import { createClient, LogError } from '@aso-registry/sdk';
import { repoRoot } from '../support/build-site.ts';
import { siteDir } from '../support/site.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { rejection } from './support/rejection.ts';

let server: StaticServer;
let logKey: string;

beforeAll(async () => {
  server = await serveStatic(siteDir());
  logKey = (await readFile(join(repoRoot, 'registry', 'log.pub'), 'utf8')).trim();
});
afterAll(async () => {
  await server?.close();
});

it('proves every sample version in the log, reporting the checkpoint as unsigned', async () => {
  const note = await readFile(join(siteDir(), 'checkpoint'), 'utf8');
  const { checkpoint, signature } = await openCheckpoint(note, []);
  expect(signature.state).toBe('unsigned');
  const client = createClient({ origin: server.origin });
  let n = 0;
  for (const object of await client.listObjects()) {
    for (const version of object.versions) {
      const got = await client.getObject(object.id, version);
      expect(got.logVerified).toMatchObject({ checkpoint: { size: checkpoint.size, signature: 'unsigned', signedBy: null }, publisher: null });
      n++;
    }
  }
  expect(n).toBe(checkpoint.size);
  expect(client.checkpoint()).toBe(note);
});

it('refuses the unsigned checkpoint once the registry\'s log key is pinned, unless the log is skipped', async () => {
  const client = createClient({ origin: server.origin, logKey });
  const error = await rejection(client.getObject('oak-chair', '1.0.0'));
  expect(error).toBeInstanceOf(LogError);
  expect((error as Error).message).toMatch(/^log check failed: the checkpoint is not signed by the pinned log key registry\.example\.org\+[0-9a-f]{8}: it is unsigned$/);
  expect((await client.getObject('oak-chair', '1.0.0', { log: 'skip' })).logVerified).toBeNull();
});

it('requires a log proof when asked, and refuses a key that is not a verifier key', async () => {
  const path = '/api/v1/objects/oak-chair/versions/1.0.0.json';
  const doc = JSON.parse(await readFile(join(siteDir(), ...path.split('/').filter(Boolean)), 'utf8')) as Record<string, unknown>;
  server.setOverride((p) => (p === path ? { body: JSON.stringify({ ...doc, log: null }) } : undefined));
  const client = createClient({ origin: server.origin });
  expect((await client.getObject('oak-chair', '1.0.0')).logVerified).toBeNull();
  const error = await rejection(client.getObject('oak-chair', '1.0.0', { log: 'require' }));
  expect(error).toBeInstanceOf(LogError);
  expect((error as Error).message).toBe('log check failed: oak-chair@1.0.0 carries no log proof');
  server.setOverride(undefined);
  expect(() => createClient({ origin: server.origin, logKey: 'not a key' })).toThrow(/createClient: logKey: a verifier key is <name>\+<8 hex digits>\+<base64 key>/);
  expect(() => createClient({ origin: server.origin, checkpoint: 'nonsense' })).toThrow(/createClient: checkpoint: /);
});
