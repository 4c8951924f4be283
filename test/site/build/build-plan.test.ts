/** What a build makes again: the plan from the digests of the last build into the same output folder. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planBuild } from '../../../src/site/build/build-plan.ts';
import { writePageDigests } from '../../../src/site/build/page-digests.ts';
import { pagePaths } from '../../../src/site/data/page-paths.ts';
import { writeVersion } from '../../support/fixture-registry.ts';
import { picture, twoObjects, type TwoObjects } from './two-objects.ts';

let fx: TwoObjects;
let root: string;
let cache: string;
const load = () => fx.load();

beforeAll(async () => {
  fx = await twoObjects('aso-build-plan-');
  ({ root, cache } = fx);
});
afterAll(() => fx.remove());

describe('planBuild', () => {
  it('keeps nothing without a last build, everything after one of the same inputs, and each output folder apart', async () => {
    const data = await load();
    const cold = await planBuild(data, 'code-1', cache, '/site/a');
    const paths = pagePaths(data);
    expect(paths.some((p) => cold.pageUnchanged(p))).toBe(false);
    expect(cold.documentsUnchanged('alpha-object', '1.0.0')).toBe(false);
    await writePageDigests(cold.digestsFile, cold.digests);

    const warm = await planBuild(data, 'code-1', cache, '/site/a');
    expect(paths.every((p) => warm.pageUnchanged(p))).toBe(true);
    expect(warm.documentsUnchanged('beta-object', '1.0.0')).toBe(true);
    expect(warm.digests).toEqual(cold.digests);

    // Another output folder has no last build of its own; another renderer changes every page.
    const elsewhere = await planBuild(data, 'code-1', cache, '/site/b');
    expect(elsewhere.digestsFile).not.toBe(cold.digestsFile);
    expect(elsewhere.searchDigestsFile).not.toBe(cold.searchDigestsFile);
    expect(paths.some((p) => elsewhere.pageUnchanged(p))).toBe(false);
    const newCode = await planBuild(data, 'code-2', cache, '/site/a');
    expect(paths.some((p) => newCode.pageUnchanged(p))).toBe(false);
  });

  it('makes again the pages and documents of an object that gets a version, and the listings, nothing else', async () => {
    const last = await planBuild(await load(), 'code-1', cache, '/site/c');
    await writePageDigests(last.digestsFile, last.digests);
    await writeVersion(root, { id: 'alpha-object', version: '1.1.0', tags: ['wood'], files: await picture(3) });
    const data = await load();
    const plan = await planBuild(data, 'code-1', cache, '/site/c');
    const changed = pagePaths(data).filter((p) => !plan.pageUnchanged(p));
    expect(changed).toEqual(expect.arrayContaining(['objects/alpha-object/', 'objects/alpha-object/versions/1.0.0/', 'objects/alpha-object/versions/1.1.0/', '']));
    expect(changed).not.toContain('objects/beta-object/');
    expect(changed).not.toContain('objects/beta-object/versions/1.0.0/');
    expect(plan.documentsUnchanged('alpha-object', '1.0.0')).toBe(false);
    expect(plan.documentsUnchanged('beta-object', '1.0.0')).toBe(true);
  });

  it('puts every record page in one shard of the search index, once', async () => {
    const data = await load();
    const plan = await planBuild(data, 'code-1', cache, '/site/d');
    const records = pagePaths(data).filter((p) => /^objects\/[^/]+\/versions\/[^/]+\/$/.test(p));
    expect(plan.searchShards).toHaveLength(data.searchShards);
    expect(plan.searchShards.flatMap((s) => s.paths).sort()).toEqual(records.sort());
  });
});
