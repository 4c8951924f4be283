import { mkdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { planVersion, publishedVersions, readVersion } from '../../src/publish/plan-version.ts';
import { PublishError } from '../../src/publish/publish-error.ts';
import { createFixture, type Fixture } from '../registry/fixture.ts';

const fixtures: Fixture[] = [];
async function registry(...versions: string[]): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  for (const v of versions) await fx.addVersion({ id: 'chair', version: v, edit: (m) => void (m.name = `Chair ${v}`) });
  return fx;
}
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.cleanup();
});

async function failure(call: Promise<unknown>): Promise<PublishError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublishError);
  return error as PublishError;
}

describe('planVersion', () => {
  it('starts a new object at 1.0.0', async () => {
    const fx = await registry();
    expect(await planVersion(fx.root, 'lamp', {})).toEqual({ id: 'lamp', version: '1.0.0', existing: [] });
  });

  it('bumps the latest release (not a prerelease), patch unless told, and carries its manifest', async () => {
    const fx = await registry('1.0.0', '1.2.0', '2.0.0-rc.1');
    const plan = await planVersion(fx.root, 'chair', {});
    expect(plan).toMatchObject({ id: 'chair', version: '1.2.1' });
    expect(plan.existing.sort()).toEqual(['1.0.0', '1.2.0', '2.0.0-rc.1']);
    expect(plan.latest?.name).toBe('Chair 1.2.0');
    expect((await planVersion(fx.root, 'chair', { bump: 'minor' })).version).toBe('1.3.0');
    expect((await planVersion(fx.root, 'chair', { bump: 'major' })).version).toBe('2.0.0');
  });

  it('takes an exact version that is not published yet', async () => {
    const fx = await registry('1.0.0');
    expect((await planVersion(fx.root, 'chair', { version: '1.0.1-beta.1' })).version).toBe('1.0.1-beta.1');
  });

  it('refuses a version that exists, naming the latest', async () => {
    const fx = await registry('1.0.0', '1.1.0');
    const error = await failure(planVersion(fx.root, 'chair', { version: '1.0.0' }));
    expect(error.message).toMatch(/^chair@1\.0\.0 exists already \(.*objects\/chair\/versions\/1\.0\.0\); published versions are never changed: choose another --version \(the latest is 1\.1\.0\)$/);
    expect(error.exitCode).toBe(1);
  });

  it('refuses a bad id, a bad version and both --version and --bump as usage errors', async () => {
    const fx = await registry();
    for (const [call, message] of [
      [() => planVersion(fx.root, 'Oak Chair', {}), '--object "Oak Chair" must be lowercase letters, digits, ".", "_" or "-", starting and ending with a letter or digit'],
      [() => planVersion(fx.root, 'chair', { version: 'v1' }), '--version "v1" is not a Semantic Versioning 2.0.0 version (MAJOR.MINOR.PATCH[-prerelease][+build])'],
      [() => planVersion(fx.root, 'chair', { version: '1.0.0', bump: 'minor' }), 'give either --version or --bump, not both'],
    ] as const) {
      const error = await failure(call());
      expect(error.message).toBe(message);
      expect(error.exitCode).toBe(2);
    }
  });

  it('refuses to plan on a broken ledger', async () => {
    const fx = await registry('1.0.0');
    await fx.write('ledger.jsonl', 'garbage\n');
    const error = await failure(planVersion(fx.root, 'chair', {}));
    expect(error.message).toMatch(/ledger\.jsonl: line 1: is not JSON.*; the ledger must be valid before a version is added to it \(see npm run check\)$/);
  });
});

describe('publishedVersions', () => {
  it('lists the folders that are exact versions only', async () => {
    const fx = await registry('1.0.0');
    await mkdir(fx.path('objects/chair/versions/draft'), { recursive: true });
    await fx.write('objects/chair/versions/2.0.0', 'a file, not a folder');
    expect(await publishedVersions(fx.root, 'chair')).toEqual(['1.0.0']);
    expect(await publishedVersions(fx.root, 'nothing')).toEqual([]);
  });
});

describe('readVersion', () => {
  it('reads the manifest and publication record, naming a file that is missing or broken', async () => {
    const fx = await registry('1.0.0', '1.1.0');
    const v = await readVersion(fx.root, 'chair', '1.0.0');
    expect([v.manifest.version, v.publication.publisher, v.dir]).toEqual(['1.0.0', 'test-publisher', fx.path('objects/chair/versions/1.0.0')]);
    await fx.write('objects/chair/versions/1.1.0/publication.json', '{');
    expect((await failure(readVersion(fx.root, 'chair', '1.1.0'))).message).toMatch(/versions\/1\.1\.0\/publication\.json: is not valid JSON \(/);
    expect((await failure(readVersion(fx.root, 'chair', '3.0.0'))).message).toMatch(/versions\/3\.0\.0\/aso\.object\.json: cannot be read \(ENOENT\)$/);
  });
});
