/** The copy thread's copier: fresh folders made once each, bytes and times kept, the first failure named. */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCopier } from '../../src/site/copy-thread.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-copy-thread-'));
  await mkdir(join(work, 'src'));
  await writeFile(join(work, 'src', 'a.json'), '{"a":1}\n');
  await writeFile(join(work, 'src', 'b.glb'), Buffer.alloc(100_000, 7));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('freshCopier', () => {
  it('copies into new folders and says which files it wrote and which folders it made, every level of them', async () => {
    const out = join(work, 'out-1');
    await mkdir(out);
    const copier = freshCopier(out);
    copier.copy([{ from: join(work, 'src', 'a.json'), path: 'objects/x/versions/1.0.0/aso.object.json' }]);
    copier.copy([{ from: join(work, 'src', 'b.glb'), path: 'objects/x/versions/1.0.0/representations/mesh.glb' }]);
    const done = copier.finish();
    expect(done).toEqual({
      written: ['objects/x/versions/1.0.0/aso.object.json', 'objects/x/versions/1.0.0/representations/mesh.glb'],
      madeFolders: ['objects', 'objects/x', 'objects/x/versions', 'objects/x/versions/1.0.0', 'objects/x/versions/1.0.0/representations'].map((d) => join(out, d)),
    });
    expect(await readFile(join(out, 'objects/x/versions/1.0.0/aso.object.json'), 'utf8')).toBe('{"a":1}\n');
    expect((await readFile(join(out, 'objects/x/versions/1.0.0/representations/mesh.glb'))).equals(Buffer.alloc(100_000, 7))).toBe(true);
    expect((await stat(join(out, 'objects/x/versions/1.0.0/representations/mesh.glb'))).mtimeMs).toBeCloseTo((await stat(join(work, 'src', 'b.glb'))).mtimeMs, 0);
  });

  it('stops at the first copy that fails and names its source and site path', () => {
    const out = join(work, 'out-2');
    const copier = freshCopier(out);
    copier.copy([
      { from: join(work, 'src', 'gone.glb'), path: 'objects/y/versions/1.0.0/representations/gone.glb' },
      { from: join(work, 'src', 'a.json'), path: 'objects/y/versions/1.0.0/aso.object.json' },
    ]);
    copier.copy([{ from: join(work, 'src', 'a.json'), path: 'objects/z/versions/1.0.0/aso.object.json' }]);
    const done = copier.finish();
    expect('error' in done && done.error).toMatch(/could not copy .*gone\.glb to objects\/y\/versions\/1\.0\.0\/representations\/gone\.glb: ENOENT/);
  });
});
