/** The few git plumbing commands the immutability check needs, run with `execFile` (no shell). */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/** A git command that failed, or git that is not installed: a person can act on the message. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

/** Runs git with `args` in `cwd` and returns its standard output as bytes. */
export function git(args: string[], cwd: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return reject(new GitError('git is not installed or not on PATH'));
      const why = stderr.toString('utf8').trim() || error.message;
      reject(new GitError(`git ${args[0]} failed: ${why}`));
    });
  });
}

/** The repository's top folder and the path of `dir` inside it (`registry/`, or `` at the top); `dir` need not exist. */
export async function repoLocation(dir: string): Promise<{ top: string; prefix: string }> {
  // Start from the nearest folder that exists: a registry folder that is gone is still compared with the base.
  let existing = dir;
  let missing = '';
  while (!(await stat(existing).then((s) => s.isDirectory(), () => false)) && dirname(existing) !== existing) {
    missing = `${basename(existing)}/${missing}`;
    existing = dirname(existing);
  }
  let out: string;
  try {
    out = (await git(['rev-parse', '--show-toplevel', '--show-prefix'], existing)).toString('utf8');
  } catch (error) {
    throw new GitError(`${dir} is not inside a git repository (${(error as Error).message})`);
  }
  const [top = '', prefix = ''] = out.split('\n');
  return { top, prefix: `${prefix}${missing}` };
}

/** The commit a ref names, or a GitError that says how to get it. */
export async function resolveCommit(top: string, ref: string): Promise<string> {
  if (ref === '' || ref.startsWith('-')) throw new GitError(`"${ref}" is not a git ref`);
  try {
    return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], top)).toString('utf8').trim();
  } catch {
    throw new GitError(`"${ref}" is not a commit of this repository (in a shallow or single-branch check-out, fetch it first, e.g. git fetch origin <branch>)`);
  }
}

/** One entry of `git ls-tree -r`. */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** The blob's size in bytes (-1 for a submodule's commit). */
  size: number;
  /** Path relative to the repository's top folder, with `/`. */
  path: string;
}

/** Every blob under `paths` (relative to `top`) at `commit`. */
export async function lsTree(top: string, commit: string, paths: string[]): Promise<TreeEntry[]> {
  const out = (await git(['--literal-pathspecs', 'ls-tree', '-r', '-l', '-z', '--full-tree', commit, '--', ...paths], top)).toString('utf8');
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    // `-l` pads the size column with spaces.
    const [mode = '', type = '', oid = '', size = '-'] = record.slice(0, tab).split(/ +/);
    entries.push({ mode, type, oid, size: size === '-' ? -1 : Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

/** The bytes of a blob. */
export function readBlob(top: string, oid: string): Promise<Buffer> {
  return git(['cat-file', 'blob', oid], top);
}
