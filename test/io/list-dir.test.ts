import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryKindProblem, listDir, type DirEntry } from '../../src/io/list-dir.ts';

describe('listDir', () => {
  let dir: string;
  let socket: Server;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-list-dir-test-'));
    await writeFile(join(dir, 'b.json'), '{}');
    await writeFile(join(dir, 'B.json'), '{}');
    await writeFile(join(dir, 'a.json'), '{}');
    await mkdir(join(dir, 'objects'));
    await symlink(join(dir, 'objects'), join(dir, 'link-to-dir'));
    await symlink(join(dir, 'a.json'), join(dir, 'link-to-file'));
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
    socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(dir, 'sock'), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => socket.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('lists every entry by what it is, never following a link, sorted by code point', async () => {
    expect(await listDir(dir)).toEqual([
      { name: 'B.json', path: join(dir, 'B.json'), kind: 'file' },
      { name: 'a.json', path: join(dir, 'a.json'), kind: 'file' },
      { name: 'b.json', path: join(dir, 'b.json'), kind: 'file' },
      { name: 'dangling', path: join(dir, 'dangling'), kind: 'symlink' },
      { name: 'link-to-dir', path: join(dir, 'link-to-dir'), kind: 'symlink' },
      { name: 'link-to-file', path: join(dir, 'link-to-file'), kind: 'symlink' },
      { name: 'objects', path: join(dir, 'objects'), kind: 'dir' },
      { name: 'sock', path: join(dir, 'sock'), kind: 'other' },
    ]);
  });

  it('gives an empty list for an empty folder and null for a missing one', async () => {
    expect(await listDir(join(dir, 'objects'))).toEqual([]);
    expect(await listDir(join(dir, 'missing'))).toBeNull();
  });

  it('throws for a path that is not a folder', async () => {
    await expect(listDir(join(dir, 'a.json'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('entryKindProblem', () => {
  const entry = (kind: DirEntry['kind']): DirEntry => ({ name: 'x', path: '/x', kind });
  it('accepts plain files and folders and says why links and other entries are refused', () => {
    expect(entryKindProblem(entry('file'))).toBeNull();
    expect(entryKindProblem(entry('dir'))).toBeNull();
    expect(entryKindProblem(entry('symlink'))).toBe('is a symbolic link; the registry holds only plain files and folders');
    expect(entryKindProblem(entry('other'))).toBe('is not a plain file or folder');
  });
});
