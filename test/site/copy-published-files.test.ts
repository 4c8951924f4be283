import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyIfChanged } from '../../src/site/copy-published-files.ts';

describe('copyIfChanged', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-copy-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('copies, gives the copy the source’s time, and then leaves it alone', async () => {
    const from = join(dir, 'a.glb');
    const to = join(dir, 'a-copy.glb');
    await writeFile(from, 'mesh bytes');
    expect(await copyIfChanged(from, to)).toBe(true);
    expect(await readFile(to, 'utf8')).toBe('mesh bytes');
    expect(Math.abs((await stat(to)).mtimeMs - (await stat(from)).mtimeMs)).toBeLessThan(1);
    expect(await copyIfChanged(from, to)).toBe(false);
  });

  it('copies again when the target differs in size or time', async () => {
    const from = join(dir, 'b.json');
    const to = join(dir, 'b-copy.json');
    await writeFile(from, '{"v":1}');
    await copyIfChanged(from, to);
    await writeFile(to, '{"v":1} tampered');
    expect(await copyIfChanged(from, to)).toBe(true);
    expect(await readFile(to, 'utf8')).toBe('{"v":1}');
    // Same size, other bytes and another time (an edit by hand): copied again.
    await writeFile(to, '{"v":2}');
    expect(await copyIfChanged(from, to)).toBe(true);
    expect(await readFile(to, 'utf8')).toBe('{"v":1}');
  });

  it('copies when a file of the same size and another time replaced the source', async () => {
    const from = join(dir, 'c.txt');
    const to = join(dir, 'c-copy.txt');
    await writeFile(from, 'one');
    await copyIfChanged(from, to);
    await writeFile(from, 'two');
    const later = new Date(Date.now() + 5000);
    await utimes(from, later, later);
    expect(await copyIfChanged(from, to)).toBe(true);
    expect(await readFile(to, 'utf8')).toBe('two');
  });
});
