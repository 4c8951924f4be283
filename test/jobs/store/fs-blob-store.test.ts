import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../../src/jobs/store/fs-blob-store.ts';

describe('FsBlobStore', () => {
  let dir: string;
  let store: FsBlobStore;
  beforeAll(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'aso-blobs-test-')), 'blobs');
    store = await FsBlobStore.open(dir);
  });
  afterAll(() => rm(join(dir, '..'), { recursive: true, force: true }));

  it('keeps bytes under a name: get, size and stream give them back, delete removes them', async () => {
    await store.put('job-1.input', Uint8Array.from([1, 2, 3]));
    expect(await store.get('job-1.input')).toEqual(Uint8Array.from([1, 2, 3]));
    expect(await store.size('job-1.input')).toBe(3);
    await store.put('job-1.glb', new TextEncoder().encode('glTF asset'));
    expect(await text(await store.stream('job-1.glb'))).toBe('glTF asset');
    await store.put('job-1.input', Uint8Array.from([9]));
    expect(await store.get('job-1.input')).toEqual(Uint8Array.from([9]));
    await store.delete('job-1.input');
    await store.delete('job-1.input');
    expect(await store.get('job-1.input')).toBeUndefined();
    expect(await store.size('job-1.input')).toBeUndefined();
  });

  it('refuses a name that could leave the folder or hide a file', async () => {
    for (const name of ['../escape', 'a/b', '.hidden', '', 'x'.repeat(152), 'name with space']) {
      await expect(store.put(name, Uint8Array.from([1])), name).rejects.toThrow(`blob name "${name}" is not a safe file name`);
      await expect(store.get(name)).rejects.toThrow('is not a safe file name');
    }
    expect((await readdir(join(dir, '..'))).sort()).toEqual(['blobs']);
  });

  it('takes over a temporary file of its own folder under a name, and refuses a file from elsewhere', async () => {
    const staged = store.temporaryPath();
    expect(staged.startsWith(join(dir, '.'))).toBe(true);
    await writeFile(staged, Uint8Array.from([4, 5, 6]));
    await store.putFile('job-2.input', staged);
    expect(await store.get('job-2.input')).toEqual(Uint8Array.from([4, 5, 6]));
    expect(await readdir(dir)).not.toContain(basename(staged));
    const outside = join(dir, '..', 'outside.tmp');
    await writeFile(outside, 'x');
    await expect(store.putFile('job-3.input', outside)).rejects.toThrow(`blob file ${outside} is not a temporary file of the blob folder ${dir}`);
    await expect(store.putFile('../job-3.input', store.temporaryPath())).rejects.toThrow('blob name "../job-3.input" is not a safe file name');
    await rm(outside);
  });

  it('removes the temporary files of an interrupted write when it opens, and keeps the blobs', async () => {
    const other = join(dir, '..', 'reopened');
    const first = await FsBlobStore.open(other);
    await first.put('kept.glb', Uint8Array.from([7]));
    await writeFile(join(other, '.kept.glb.0123456789ab.tmp'), 'half a write');
    await writeFile(first.temporaryPath(), 'half an upload');
    await FsBlobStore.open(other);
    expect(await readdir(other)).toEqual(['kept.glb']);
  });
});
