/** The git side of a publish: refuse a dirty tree up front, then one commit of the new version on `publish/<id>/<version>`. */
import { relative, sep } from 'node:path';
import { git, GitError, repoLocation } from '../io/git.ts';
import { PublishError } from './publish-error.ts';

/** The repository a publish commits to. */
export interface GitTarget {
  /** The repository's top folder. */
  top: string;
  /** The branch to create. */
  branch: string;
  /** Where HEAD was: a branch name, or a commit when detached (null in a repository with no commit yet). */
  start: string | null;
}

/** The branch a version is published on. */
export function publishBranch(id: string, version: string): string {
  return `publish/${id}/${version}`;
}

/**
 * Checks, before any job is submitted, that the commit can be made: `cwd` is in a git repository, no tracked
 * file has changes (staged or not), nothing untracked sits in `registry/`, and the branch does not exist yet.
 * Untracked files elsewhere (the input photo, say) are left alone: the commit names its paths.
 */
export async function prepareCommit(cwd: string, registryRoot: string, branch: string): Promise<GitTarget> {
  let top: string;
  try {
    ({ top } = await repoLocation(cwd));
  } catch (error) {
    throw new PublishError(`${(error as Error).message}; run inside the registry's repository, or pass --no-commit`);
  }
  const status = (await run(['status', '--porcelain=v1', '-z', '--untracked-files=all'], top)).split('\0').filter((l) => l !== '');
  const registry = `${relative(top, registryRoot).split(sep).join('/')}/`;
  const dirty: string[] = [];
  for (let i = 0; i < status.length; i++) {
    const entry = status[i]!;
    const code = entry.slice(0, 2);
    const path = entry.slice(3);
    if (code[0] === 'R' || code[0] === 'C') i++; // a rename is followed by its source path
    if (code === '??' && !path.startsWith(registry)) continue;
    dirty.push(`${code.trim() || code} ${path}`);
  }
  if (dirty.length) {
    const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, and ${dirty.length - 5} more` : '');
    throw new PublishError(
      `the working tree has changes (${shown}); commit or stash them first so the publish commit holds only the new version, or pass --no-commit`,
    );
  }
  try {
    await run(['check-ref-format', '--branch', branch], top);
  } catch {
    throw new PublishError(`"${branch}" is not a valid git branch name`);
  }
  const existing = await run(['branch', '--list', branch], top);
  if (existing.trim() !== '') throw new PublishError(`the branch ${branch} exists already; delete it or publish another version`);
  const head = await run(['symbolic-ref', '--short', '-q', 'HEAD'], top).catch(() => '');
  const start = head.trim() || (await run(['rev-parse', '--verify', '-q', 'HEAD'], top).catch(() => '')).trim() || null;
  return { top, branch, start };
}

/** The configured `user.name` of the repository at `cwd`, or undefined. */
export async function gitUserName(cwd: string): Promise<string | undefined> {
  const name = await run(['config', 'user.name'], cwd).catch(() => '');
  return name.trim() || undefined;
}

/** Creates the branch and commits exactly `paths` (relative to the top folder); returns the commit. Undoes the branch on failure. */
export async function commitOnBranch(target: GitTarget, paths: string[], message: string): Promise<string> {
  const { top, branch } = target;
  let switched = false;
  try {
    await run(['switch', '-q', '-c', branch], top);
    switched = true;
    await run(['add', '-A', '--', ...paths], top);
    await run(['commit', '-q', '-m', message, '--', ...paths], top);
    return (await run(['rev-parse', 'HEAD'], top)).trim();
  } catch (error) {
    const why = error instanceof GitError ? error.message : String(error);
    const left = await undoBranch(target, paths, switched);
    throw new PublishError(`cannot commit the new version on ${branch}: ${why}${left ? `; ${left}` : ''}`);
  }
}

/**
 * Puts the repository back as it was before a failed commit: unstages `paths`, switches back to where it started and
 * deletes the new branch. Returns what could not be undone, with the commands that finish it by hand, or '' when all was.
 */
async function undoBranch(target: GitTarget, paths: string[], switched: boolean): Promise<string> {
  const { top, branch, start } = target;
  const failed: string[] = [];
  const step = async (args: string[], fallback?: string[]): Promise<boolean> => {
    try {
      await run(args, top);
      return true;
    } catch (error) {
      if (fallback) return step(fallback);
      failed.push(`git ${args.join(' ')} failed (${error instanceof Error ? error.message : String(error)})`);
      return false;
    }
  };
  await step(['reset', '-q', '--', ...paths]);
  if (switched && start) {
    if (await step(['switch', '-q', start], ['switch', '-q', '--detach', start])) await step(['branch', '-q', '-D', branch]);
  }
  if (failed.length === 0) return '';
  const finish = switched && start ? `git switch ${start} && git branch -D ${branch}` : `git reset -- ${paths.join(' ')}`;
  return `undoing it failed too: ${failed.join('; ')}; the repository may still be on ${branch}: finish by hand with ${finish}`;
}

async function run(args: string[], cwd: string): Promise<string> {
  return (await git(args, cwd)).toString('utf8');
}
