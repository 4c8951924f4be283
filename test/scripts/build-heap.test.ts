/** The heap bound `npm run build` gives the build: from the registry's size unless it is set. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeapMb, countVersions, DEFAULT_HEAP_MB, heapMbFor } from '../../scripts/build-heap.mjs';

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

describe('buildHeapMb', () => {
  it('sizes the heap for the registry of ASO_REGISTRY_DIR, relative to the working folder', () => {
    expect(buildHeapMb({ ASO_REGISTRY_DIR: 'registry' }, work)).toBe(DEFAULT_HEAP_MB);
    expect(buildHeapMb({}, work)).toBe(DEFAULT_HEAP_MB);
    expect(buildHeapMb({ ASO_REGISTRY_DIR: 'nowhere' }, work)).toBe(DEFAULT_HEAP_MB);
  });

  it('takes ASO_BUILD_HEAP_MB as it is, and refuses what is not a whole number of MiB of at least 128', () => {
    expect(buildHeapMb({ ASO_BUILD_HEAP_MB: ' 2048 ' }, work)).toBe(2048);
    for (const value of ['lots', '1.5', '64']) expect(() => buildHeapMb({ ASO_BUILD_HEAP_MB: value }, work)).toThrow(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${value}")`);
  });
});
