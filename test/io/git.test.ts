import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, GitError, lsTree, readBlob, repoLocation, resolveCommit } from '../../src/io/git.ts';

const run = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Git Test',
  GIT_AUTHOR_EMAIL: 'git@registry.test',
  GIT_COMMITTER_NAME: 'Git Test',
  GIT_COMMITTER_EMAIL: 'git@registry.test',
};

describe('git primitives on a real repository', () => {
  let top: string;
  let outside: string;
  let first: string;
  let second: string;
  const sh = async (...args: string[]) => (await run('git', args, { cwd: top, env: GIT_ENV })).stdout.trim();
  const binary = Uint8Array.from([0, 1, 2, 255, 10, 13, 0, 80, 76, 89]);

  beforeAll(async () => {
    top = await realpath(await mkdtemp(join(tmpdir(), 'aso-git-test-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'aso-git-outside-')));
    await sh('init', '-q', '-b', 'main');
    await sh('config', 'commit.gpgsign', 'false');
    await sh('config', 'core.autocrlf', 'false');
    await mkdir(join(top, 'registry', 'objects', 'chair'), { recursive: true });
    await writeFile(join(top, 'README.md'), '# repo\n');
    await writeFile(join(top, 'registry', 'ledger.jsonl'), 'one\n');
    await writeFile(join(top, 'registry', 'objects', 'chair', 'mesh.glb'), binary);
    await sh('add', '-A');
    await sh('commit', '-q', '-m', 'first');
    first = await sh('rev-parse', 'HEAD');
    await sh('tag', '-a', 'v1', '-m', 'annotated');
    await writeFile(join(top, 'registry', 'ledger.jsonl'), 'one\ntwo\n');
    await writeFile(join(top, 'registry', 'objects', 'chair', 'a b é.txt'), 'odd name\n');
    await writeFile(join(top, ':(top)README.md'), 'a name git would read as pathspec magic\n');
    await sh('add', '-A');
    await sh('commit', '-q', '-m', 'second');
    second = await sh('rev-parse', 'HEAD');
  });
  afterAll(async () => {
    await rm(top, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  describe('repoLocation', () => {
    it('gives the top folder and the prefix of a folder inside it', async () => {
      expect(await repoLocation(top)).toEqual({ top, prefix: '' });
      expect(await repoLocation(join(top, 'registry'))).toEqual({ top, prefix: 'registry/' });
      expect(await repoLocation(join(top, 'registry', 'objects', 'chair'))).toEqual({ top, prefix: 'registry/objects/chair/' });
    });

    it('works for a folder that does not exist yet', async () => {
      expect(await repoLocation(join(top, 'registry', 'gone', 'deeper'))).toEqual({ top, prefix: 'registry/gone/deeper/' });
    });

    it('names the folder that is not inside a repository', async () => {
      const error = await repoLocation(outside).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitError);
      expect((error as GitError).message).toMatch(new RegExp(`^${outside} is not inside a git repository \\(git rev-parse failed: fatal: not a git repository`));
    });
  });

  describe('resolveCommit', () => {
    it('resolves a branch, HEAD~1, a short id and an annotated tag to the commit', async () => {
      expect(await resolveCommit(top, 'main')).toBe(second);
      expect(await resolveCommit(top, 'HEAD~1')).toBe(first);
      expect(await resolveCommit(top, first.slice(0, 10))).toBe(first);
      expect(await resolveCommit(top, 'v1')).toBe(first);
    });

    it('refuses an unknown ref with a GitError that says how to fetch it', async () => {
      const error = await resolveCommit(top, 'origin/main').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitError);
      expect((error as Error).message).toBe(
        '"origin/main" is not a commit of this repository (in a shallow or single-branch check-out, fetch it first, e.g. git fetch origin <branch>)',
      );
    });

    it('refuses an object that is not a commit', async () => {
      const blob = await sh('rev-parse', `${first}:README.md`);
      await expect(resolveCommit(top, blob)).rejects.toThrow(`"${blob}" is not a commit of this repository`);
    });

    it('refuses an empty ref and one that git would read as an option', async () => {
      await expect(resolveCommit(top, '')).rejects.toThrow(new GitError('"" is not a git ref'));
      await expect(resolveCommit(top, '--all')).rejects.toThrow(new GitError('"--all" is not a git ref'));
    });
  });

  describe('lsTree', () => {
    it('lists every blob under a path at a commit, with mode, type, id, size and full path', async () => {
      const entries = await lsTree(top, first, ['registry']);
      const size = async (path: string) => Number(await sh('cat-file', '-s', `${first}:${path}`));
      expect(entries).toEqual([
        { mode: '100644', type: 'blob', oid: await sh('rev-parse', `${first}:registry/ledger.jsonl`), size: await size('registry/ledger.jsonl'), path: 'registry/ledger.jsonl' },
        { mode: '100644', type: 'blob', oid: await sh('rev-parse', `${first}:registry/objects/chair/mesh.glb`), size: await size('registry/objects/chair/mesh.glb'), path: 'registry/objects/chair/mesh.glb' },
      ]);
    });

    it('sees each commit as it was', async () => {
      const paths = async (commit: string) => (await lsTree(top, commit, ['registry/objects'])).map((e) => e.path);
      expect(await paths(first)).toEqual(['registry/objects/chair/mesh.glb']);
      expect(await paths(second)).toEqual(['registry/objects/chair/a b é.txt', 'registry/objects/chair/mesh.glb']);
    });

    it('takes paths literally (no pathspec magic) and returns names unquoted', async () => {
      expect((await lsTree(top, second, [':(top)README.md'])).map((e) => e.path)).toEqual([':(top)README.md']);
      expect((await lsTree(top, second, ['registry/objects/chair/a b é.txt'])).map((e) => e.path)).toEqual(['registry/objects/chair/a b é.txt']);
    });

    it('lists the whole tree from the top, whatever folder it runs in, and nothing for a path that is absent', async () => {
      expect((await lsTree(top, first, ['.'])).map((e) => e.path)).toEqual(['README.md', 'registry/ledger.jsonl', 'registry/objects/chair/mesh.glb']);
      expect(await lsTree(join(top, 'registry'), first, ['README.md'])).toHaveLength(1);
      expect(await lsTree(top, first, ['nothing/here'])).toEqual([]);
    });
  });

  describe('readBlob', () => {
    it('returns the exact bytes of a blob, binary included', async () => {
      const [mesh] = await lsTree(top, first, ['registry/objects/chair/mesh.glb']);
      expect(new Uint8Array(await readBlob(top, mesh!.oid))).toEqual(binary);
      const ledgers = await Promise.all([first, second].map(async (c) => (await lsTree(top, c, ['registry/ledger.jsonl']))[0]!.oid));
      expect((await Promise.all(ledgers.map((oid) => readBlob(top, oid)))).map((b) => b.toString('utf8'))).toEqual(['one\n', 'one\ntwo\n']);
    });

    it('fails with a GitError for an object that does not exist', async () => {
      await expect(readBlob(top, '0'.repeat(40))).rejects.toThrow(GitError);
    });
  });

  describe('git', () => {
    it("fails with git's own message", async () => {
      await expect(git(['frobnicate'], top)).rejects.toThrow(/^git frobnicate failed: git: 'frobnicate' is not a git command/);
    });

    it('says when git cannot be found', async () => {
      const path = process.env.PATH;
      process.env.PATH = outside;
      try {
        await expect(git(['status'], top)).rejects.toThrow(new GitError('git is not installed or not on PATH'));
      } finally {
        process.env.PATH = path;
      }
    });
  });
});
