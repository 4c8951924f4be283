/** The git step of a publish: a commit that fails is undone, and what could not be undone is said, never swallowed. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commitOnBranch, prepareCommit } from '../../src/publish/git-publish.ts';
import { createRepo, type TestRepo } from './helpers.ts';

let repo: TestRepo;
beforeEach(async () => {
  repo = await createRepo();
});
afterEach(() => repo.remove());

async function failingHook(script: string): Promise<void> {
  await writeFile(repo.path('.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${script}\nexit 1\n`);
  await chmod(repo.path('.git', 'hooks', 'pre-commit'), 0o755);
}

async function attempt(): Promise<Error> {
  const target = await prepareCommit(repo.dir, repo.path('registry'), 'publish/thing/1.0.0');
  await mkdir(repo.path('registry'), { recursive: true });
  await writeFile(repo.path('registry', 'new.txt'), 'new');
  return commitOnBranch(target, ['registry'], 'publish thing 1.0.0').then(
    () => new Error('the commit was made'),
    (error: Error) => error,
  );
}

it('undoes a failed commit: back on the start branch, the new branch gone', async () => {
  await failingHook('echo refused by hook >&2');
  const error = await attempt();
  expect(error.message).toMatch(/^cannot commit the new version on publish\/thing\/1\.0\.0: .*refused by hook/s);
  expect(error.message).not.toContain('undoing it failed');
  expect((await repo.git('branch', '--show-current')).trim()).toBe('main');
  expect((await repo.git('branch', '--list', 'publish/*')).trim()).toBe('');
});

it('says what it could not undo and how to finish by hand', async () => {
  // The hook also removes the branch the publish started from, so switching back cannot work.
  await failingHook('git update-ref -d refs/heads/main');
  const error = await attempt();
  expect(error.message).toContain('undoing it failed too: git switch -q --detach main failed (git switch failed: fatal: invalid reference: main)');
  expect(error.message).toContain('the repository may still be on publish/thing/1.0.0: finish by hand with git switch main && git branch -D publish/thing/1.0.0');
});
