/** Registries in temporary git repositories: publish, commit, tamper, and run `npm run check -- --base`. */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { runCheck, type CheckOutput } from '../../scripts/check.ts';
import { runLedger } from '../../scripts/ledger.ts';
import { createFixture, REGISTRY_URL, type Fixture, type VersionSpec } from '../registry/fixture.ts';

const run = promisify(execFile);

/** Git settings that make commits work on any machine, whatever its global configuration. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Registry Test',
  GIT_AUTHOR_EMAIL: 'test@registry.test',
  GIT_COMMITTER_NAME: 'Registry Test',
  GIT_COMMITTER_EMAIL: 'test@registry.test',
};

/** A fixture registry inside its own git repository. */
export interface GitRegistry extends Fixture {
  git: (...args: string[]) => Promise<string>;
  /** Stages everything and commits. */
  commit: (message: string) => Promise<void>;
  /** Adds a version and appends it to the ledger, as a publisher does. */
  publish: (spec: VersionSpec) => Promise<void>;
  /** `npm run check -- --base <ref>` in the repository. */
  check: (ref: string, ...args: string[]) => Promise<CheckOutput>;
  /** `npx tsx scripts/ledger.ts ...` for this registry. */
  ledger: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  read: (relative: string) => Promise<string>;
}

/** An empty registry in a fresh repository on branch `main` (nothing committed yet). */
export async function gitRegistry(): Promise<GitRegistry> {
  const fx = await createFixture();
  const git = async (...args: string[]): Promise<string> => (await run('git', args, { cwd: fx.repo, env: GIT_ENV })).stdout;
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Registry Test');
  await git('config', 'user.email', 'test@registry.test');
  await git('config', 'commit.gpgsign', 'false');
  await git('config', 'core.autocrlf', 'false');
  const ledger = (...args: string[]) => runLedger([...args, '--registry', fx.root], { REGISTRY_URL }, fx.repo);
  return {
    ...fx,
    git,
    commit: async (message) => {
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', message);
    },
    publish: async (spec) => {
      await fx.addVersion(spec);
      const out = await ledger('append', `${spec.id}@${spec.version}`);
      if (out.code !== 0) throw new Error(out.stderr);
    },
    check: (ref, ...args) => runCheck(['--base', ref, ...args], { REGISTRY_URL }, fx.repo),
    ledger,
    read: (relative) => readFile(fx.path(relative), 'utf8'),
  };
}

/** A repository whose first commit publishes chair@1.0.0, chair@1.1.0 and table@1.0.0 with their ledger. */
export async function publishedRegistry(): Promise<GitRegistry> {
  const repo = await gitRegistry();
  await repo.publish({ id: 'chair', version: '1.0.0' });
  await repo.publish({ id: 'chair', version: '1.1.0', createdAt: '2025-02-01T00:00:00Z' });
  await repo.publish({ id: 'table', version: '1.0.0' });
  await repo.commit('publish chair 1.0.0, 1.1.0 and table 1.0.0');
  return repo;
}

/** Replaces the bytes of a file under the registry folder with `edit(bytes)`. */
export async function editFile(repo: Fixture, relative: string, edit: (bytes: Buffer) => Buffer | string): Promise<void> {
  await writeFile(repo.path(relative), edit(await readFile(repo.path(relative))));
}
