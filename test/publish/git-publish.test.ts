import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitOnBranch, gitUserName, prepareCommit, publishBranch } from '../../src/publish/git-publish.ts';
import { PublishError } from '../../src/publish/publish-error.ts';
import { createRepo, type TestRepo } from './helpers.ts';

const repos: TestRepo[] = [];
async function repo(): Promise<TestRepo> {
  const r = await createRepo();
  repos.push(r);
  await mkdir(r.path('registry', 'objects'), { recursive: true });
  await writeFile(r.path('registry', 'objects', '.keep'), '');
  await r.git('add', '-A');
  await r.git('commit', '-q', '-m', 'registry');
  return r;
}
afterEach(async () => {
  for (const r of repos.splice(0)) await r.remove();
});

async function failure(call: Promise<unknown>): Promise<string> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublishError);
  return (error as Error).message;
}

describe('publishBranch', () => {
  it('names the branch after the version', () => {
    expect(publishBranch('oak-chair', '1.2.0+build.5')).toBe('publish/oak-chair/1.2.0+build.5');
  });
});

describe('prepareCommit', () => {
  it('gives the top folder and where HEAD is, from any folder inside', async () => {
    const r = await repo();
    const top = await realpath(r.dir);
    expect(await prepareCommit(r.path('registry'), r.path('registry'), 'publish/chair/1.0.0')).toEqual({ top, branch: 'publish/chair/1.0.0', start: 'main' });
    await r.git('checkout', '-q', '--detach');
    const head = (await r.git('rev-parse', 'HEAD')).trim();
    expect((await prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0')).start).toBe(head);
  });

  it('lets untracked files outside the registry be, but refuses changes to tracked files and new files in the registry', async () => {
    const r = await repo();
    await writeFile(r.path('photo.jpg'), 'the input photo');
    await expect(prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0')).resolves.toMatchObject({ start: 'main' });
    await writeFile(r.path('README.md'), '# changed\n');
    await writeFile(r.path('registry', 'stray.json'), '{}');
    expect(await failure(prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0'))).toBe(
      'the working tree has changes (M README.md, ?? registry/stray.json); commit or stash them first so the publish commit holds only the new version, or pass --no-commit',
    );
  });

  it('lists five changes and counts the rest', async () => {
    const r = await repo();
    for (let i = 0; i < 7; i++) await writeFile(r.path('registry', `new-${i}.txt`), 'x');
    expect(await failure(prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0'))).toMatch(/\(\?\? registry\/new-0\.txt, .*, \?\? registry\/new-4\.txt, and 2 more\)/);
  });

  it('refuses a branch that exists or is not a valid name, and a folder outside git', async () => {
    const r = await repo();
    await r.git('branch', 'publish/chair/1.0.0');
    expect(await failure(prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0'))).toBe('the branch publish/chair/1.0.0 exists already; delete it or publish another version');
    expect(await failure(prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0..0'))).toBe('"publish/chair/1.0..0" is not a valid git branch name');
    const outside = await mkdtemp(join(tmpdir(), 'aso-not-git-'));
    try {
      expect(await failure(prepareCommit(outside, join(outside, 'registry'), 'b'))).toMatch(/is not inside a git repository .*; run inside the registry's repository, or pass --no-commit$/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('commitOnBranch', () => {
  it('commits exactly the given paths on a new branch', async () => {
    const r = await repo();
    await writeFile(r.path('photo.jpg'), 'left alone');
    const target = await prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0');
    await mkdir(r.path('registry', 'objects', 'chair'), { recursive: true });
    await writeFile(r.path('registry', 'objects', 'chair', 'a.json'), '{}');
    await writeFile(r.path('notes.txt'), 'staged by someone else');
    await r.git('add', 'notes.txt');
    const commit = await commitOnBranch(target, ['registry/objects/chair'], 'Publish chair@1.0.0');
    expect(commit).toBe((await r.git('rev-parse', 'publish/chair/1.0.0')).trim());
    expect((await r.git('branch', '--show-current')).trim()).toBe('publish/chair/1.0.0');
    expect((await r.git('show', '--name-only', '--format=%s', 'HEAD')).trim().split('\n')).toEqual(['Publish chair@1.0.0', '', 'registry/objects/chair/a.json']);
    expect((await r.git('status', '--porcelain')).trim().split('\n')).toEqual(['A  notes.txt', '?? photo.jpg']);
  });

  it('goes back to where it started and deletes the branch when the commit fails', async () => {
    const r = await repo();
    const target = await prepareCommit(r.dir, r.path('registry'), 'publish/chair/1.0.0');
    const message = await failure(commitOnBranch(target, ['registry/objects/nothing-here'], 'Publish'));
    expect(message).toMatch(/^cannot commit the new version on publish\/chair\/1\.0\.0: git (add|commit) failed: /);
    expect((await r.git('branch', '--show-current')).trim()).toBe('main');
    expect((await r.git('branch', '--list', 'publish/*')).trim()).toBe('');
  });
});

describe('commitOnBranch when the commit fails', () => {
  async function failingHook(r: TestRepo, script: string): Promise<void> {
    await writeFile(r.path('.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${script}\nexit 1\n`);
    await chmod(r.path('.git', 'hooks', 'pre-commit'), 0o755);
  }

  async function attempt(r: TestRepo): Promise<Error> {
    const target = await prepareCommit(r.dir, r.path('registry'), 'publish/thing/1.0.0');
    await writeFile(r.path('registry', 'new.txt'), 'new');
    return commitOnBranch(target, ['registry'], 'publish thing 1.0.0').then(
      () => new Error('the commit was made'),
      (error: Error) => error,
    );
  }

  it('undoes a failed commit: back on the start branch, the new branch gone', async () => {
    const r = await repo();
    await failingHook(r, 'echo refused by hook >&2');
    const error = await attempt(r);
    expect(error.message).toMatch(/^cannot commit the new version on publish\/thing\/1\.0\.0: .*refused by hook/s);
    expect(error.message).not.toContain('undoing it failed');
    expect((await r.git('branch', '--show-current')).trim()).toBe('main');
    expect((await r.git('branch', '--list', 'publish/*')).trim()).toBe('');
  });

  it('says what it could not undo and how to finish by hand', async () => {
    const r = await repo();
    // The hook also removes the branch the publish started from, so switching back cannot work.
    await failingHook(r, 'git update-ref -d refs/heads/main');
    const error = await attempt(r);
    expect(error.message).toContain('undoing it failed too: git switch -q --detach main failed (git switch failed: fatal: invalid reference: main)');
    expect(error.message).toContain('the repository may still be on publish/thing/1.0.0: finish by hand with git switch main && git branch -D publish/thing/1.0.0');
  });
});

describe('gitUserName', () => {
  it("is the repository's user.name", async () => {
    const r = await repo();
    expect(await gitUserName(r.dir)).toBe('Publish Test');
    await r.git('config', 'user.name', '');
    expect(await gitUserName(r.dir)).toBeUndefined();
  });
});
