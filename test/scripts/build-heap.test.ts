/** The heap bound and generation sizes `npm run build` gives the build: from the registry's size unless the bound is set. */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMemory,
  countVersions,
  DEFAULT_HEAP_MB,
  heapMbFor,
  OLD_SPACE_START_MB,
  oldSpaceStartMbFor,
  SEMI_SPACE_MB,
  semiSpaceMbFor,
  v8FlagsFor,
} from '../../scripts/build-heap.mjs';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-build-heap-'));
  for (const [id, versions] of [['chair', ['1.0.0', '1.1.0']], ['lamp', ['0.1.0']]] as const) {
    for (const v of versions) await mkdir(join(work, 'registry', 'objects', id, 'versions', v), { recursive: true });
  }
  await writeFile(join(work, 'registry', 'objects', 'README.md'), 'not an object\n');
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('countVersions', () => {
  it('counts the version folders of every object, passing over what is no object folder', () => {
    expect(countVersions(join(work, 'registry'))).toBe(3);
  });

  it('gives 0 for a registry that is not there (the build then says what is wrong)', () => {
    expect(countVersions(join(work, 'nothing'))).toBe(0);
  });
});

describe('heapMbFor', () => {
  it('is the default up to about 70,000 versions, then 9 MiB per thousand', () => {
    expect(heapMbFor(0)).toBe(DEFAULT_HEAP_MB);
    expect(heapMbFor(10_000)).toBe(DEFAULT_HEAP_MB);
    expect(heapMbFor(100_000)).toBe(900);
    expect(heapMbFor(1_000_000)).toBe(9000);
  });
});

describe('semiSpaceMbFor', () => {
  it('gives the larger young generation while the heap bound is the default, and V8 its own above', () => {
    expect(semiSpaceMbFor(0)).toBe(SEMI_SPACE_MB);
    expect(semiSpaceMbFor(10_000)).toBe(SEMI_SPACE_MB);
    expect(semiSpaceMbFor(71_111)).toBe(SEMI_SPACE_MB);
    expect(heapMbFor(71_112)).toBeGreaterThan(DEFAULT_HEAP_MB);
    expect(semiSpaceMbFor(71_112)).toBe(0);
    expect(semiSpaceMbFor(100_000)).toBe(0);
  });
});

describe('oldSpaceStartMbFor', () => {
  it('starts the old generation larger where the young generation is larger, and leaves V8 its own elsewhere', () => {
    expect(oldSpaceStartMbFor(10_000)).toBe(OLD_SPACE_START_MB);
    expect(oldSpaceStartMbFor(71_111)).toBe(OLD_SPACE_START_MB);
    expect(oldSpaceStartMbFor(71_112)).toBe(0);
    expect(OLD_SPACE_START_MB).toBeLessThan(DEFAULT_HEAP_MB);
  });
});

describe('buildMemory', () => {
  it('sizes the heap and both generations for the registry of ASO_REGISTRY_DIR, relative to the working folder', () => {
    const small = { heapMb: DEFAULT_HEAP_MB, semiSpaceMb: SEMI_SPACE_MB, oldSpaceStartMb: OLD_SPACE_START_MB };
    expect(buildMemory({ ASO_REGISTRY_DIR: 'registry' }, work)).toEqual(small);
    expect(buildMemory({}, work)).toEqual(small);
  });

  it('takes ASO_BUILD_HEAP_MB as it is, with V8\'s own generation sizes, and refuses what is not a whole number of MiB of at least 128', () => {
    expect(buildMemory({ ASO_BUILD_HEAP_MB: ' 2048 ' }, work)).toEqual({ heapMb: 2048, semiSpaceMb: 0, oldSpaceStartMb: 0 });
    for (const value of ['lots', '1.5', '64']) expect(() => buildMemory({ ASO_BUILD_HEAP_MB: value }, work)).toThrow(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${value}")`);
  });
});

describe('v8FlagsFor', () => {
  it('gives every size that is set as the V8 flag that sets it, and none for V8\'s own', () => {
    expect(v8FlagsFor({ heapMb: 640, semiSpaceMb: 64, oldSpaceStartMb: 256 })).toEqual([
      '--max-old-space-size=640',
      '--max-semi-space-size=64',
      '--initial-old-space-size=256',
    ]);
    expect(v8FlagsFor({ heapMb: 2048, semiSpaceMb: 0, oldSpaceStartMb: 0 })).toEqual(['--max-old-space-size=2048']);
  });

  it('gives flags this Node takes', () => {
    const flags = v8FlagsFor(buildMemory({}, work));
    const run = spawnSync(process.execPath, [...flags, '-e', 'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))']);
    expect(run.stderr.toString()).toBe('');
    expect(run.status).toBe(0);
    expect(Number(run.stdout.toString())).toBeGreaterThanOrEqual(DEFAULT_HEAP_MB * 1024 * 1024);
  });
});
