/**
 * The GitHub workflow's check steps, run as the workflow runs them: each step's `run:` line in bash, with the
 * step's `env:` filled in as GitHub would, in a clone whose `origin` holds the published registry.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, rm, stat, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cacheDir } from '../../src/registry/registry-dir.ts';
import { REGISTRY_URL } from '../registry/fixture.ts';
import { repoRoot } from '../support/build-site.ts';
import { editFile, publishedRegistry, type GitRegistry } from './git-registry.ts';

interface Step {
  name?: string;
  if?: string;
  env?: Record<string, string>;
  run?: string;
}

/** The steps of the workflow's one job. */
async function workflowSteps(): Promise<Step[]> {
  const workflow = parse(await readFile(join(repoRoot, '.github', 'workflows', 'registry.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  const jobs = Object.values(workflow.jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!.steps;
}

/** Replaces each `${{ github.<name> }}` by the event's value, as GitHub does before the shell starts. */
function expand(text: string, github: Record<string, string>): string {
  return text.replace(/\$\{\{\s*github\.([a-z_.]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in github)) throw new Error(`the test gives no value for github.${name}`);
    return github[name]!;
  });
}

const run = promisify(execFile);

describe('the workflow, run on a checkout of a published registry', () => {
  let steps: Step[];
  let pullRequestStep: Step;
  let pushStep: Step;
  const dirs: string[] = [];

  beforeAll(async () => {
    steps = await workflowSteps();
    pullRequestStep = steps.find((s) => s.if?.includes("github.event_name == 'pull_request'") && s.run?.includes('npm run check'))!;
    pushStep = steps.find((s) => s.if?.includes("github.event_name == 'push'") && s.run?.includes('npm run check'))!;
  });
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('has a check step for pull requests and one for pushes', () => {
    expect(pullRequestStep).toBeDefined();
    expect(pushStep).toBeDefined();
  });

  it('restores its cache, after the install, into the folder where the check and the build keep theirs', () => {
    const cache = steps.findIndex((s) => (s as { uses?: string }).uses?.startsWith('actions/cache@'));
    const install = steps.findIndex((s) => s.run?.startsWith('npm ci'));
    expect(cache).toBeGreaterThan(install);
    expect(install).toBeGreaterThanOrEqual(0);
    const path = (steps[cache] as { with: { path: string } }).with.path;
    expect(resolve('/checkout', path)).toBe(cacheDir({}, '/checkout'));
  });

  /**
   * A registry published on `main` and pushed to a bare `origin`, checked out on a pull-request branch with its full
   * history (as `fetch-depth: 0` gives), with this project's package, scripts and sources beside the registry.
   */
  async function checkout(): Promise<{ repo: GitRegistry; before: string }> {
    const repo = await publishedRegistry();
    dirs.push(repo.repo, `${repo.repo}.git`);
    await run('git', ['clone', '-q', '--bare', repo.repo, `${repo.repo}.git`]);
    await repo.git('remote', 'add', 'origin', `${repo.repo}.git`);
    await repo.git('fetch', '-q', 'origin');
    await repo.git('checkout', '-q', '-b', 'pull-request');
    // A pull request's checkout has the base branch only as origin/<base>.
    await repo.git('branch', '-q', '-D', 'main');
    await cp(join(repoRoot, 'package.json'), join(repo.repo, 'package.json'));
    for (const name of ['scripts', 'src']) await cp(join(repoRoot, name), join(repo.repo, name), { recursive: true });
    await symlink(join(repoRoot, 'node_modules'), join(repo.repo, 'node_modules'), 'dir');
    return { repo, before: (await repo.git('rev-parse', 'HEAD')).trim() };
  }

  /** Runs a step's `run:` in bash (`bash -e`, as GitHub does) with its environment; returns the exit code and output. */
  async function runStep(step: Step, cwd: string, github: Record<string, string>): Promise<{ code: number; output: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, REGISTRY_URL };
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = expand(value, github);
    try {
      const { stdout, stderr } = await run('bash', ['-e', '-c', expand(step.run!, github)], { cwd, env });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, output: e.stdout + e.stderr };
    }
  }

  it('passes a pull request and a push that only add a version with its ledger line, and not before the line is there', async () => {
    const { repo, before } = await checkout();
    await repo.addVersion({ id: 'stool', version: '1.0.0' });
    await repo.git('add', 'registry');
    await repo.git('commit', '-q', '-m', 'add stool without its ledger line');
    const unledgered = await runStep(pullRequestStep, repo.repo, { base_ref: 'main' });
    expect(unledgered.code, unledgered.output).toBe(1);
    expect(unledgered.output).toContain('stool');

    expect((await repo.ledger('append', 'stool@1.0.0')).code).toBe(0);
    await repo.git('commit', '-q', '-am', 'append stool to the ledger');
    const pr = await runStep(pullRequestStep, repo.repo, { base_ref: 'main' });
    expect(pr.code, pr.output).toBe(0);
    expect(pr.output).toContain('unchanged since origin/main');
    const push = await runStep(pushStep, repo.repo, { 'event.before': before });
    expect(push.code, push.output).toBe(0);
    expect(push.output).toContain(`unchanged since ${before}`);
  });

  it('fails a pull request and a push that change a published file, naming it', async () => {
    const { repo, before } = await checkout();
    await editFile(repo, 'objects/chair/versions/1.0.0/representations/mesh.glb', (bytes) => Buffer.concat([bytes, Buffer.from([0])]));
    await repo.git('commit', '-q', '-am', 'rewrite a published mesh');
    for (const [step, github] of [
      [pullRequestStep, { base_ref: 'main' }],
      [pushStep, { 'event.before': before }],
    ] as const) {
      const result = await runStep(step, repo.repo, github);
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain('objects/chair/versions/1.0.0/representations/mesh.glb');
    }
  });

  it('hands refs to the shell through the environment, so a hostile branch name is only a bad ref', async () => {
    const { repo } = await checkout();
    const hostile = 'main"; touch injected; echo "';
    const result = await runStep(pullRequestStep, repo.repo, { base_ref: hostile });
    expect(result.code, result.output).toBe(2);
    expect(result.output).toContain('is not a commit of this repository');
    await expect(stat(join(repo.repo, 'injected'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
