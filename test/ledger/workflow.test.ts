/** The GitHub workflow runs the commands this repository defines, with the history the base check needs. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/build-site.ts';

it('checks pull requests against their base branch, then builds', async () => {
  const workflow = await readFile(join(repoRoot, '.github', 'workflows', 'registry.yml'), 'utf8');
  const scripts = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')).scripts as Record<string, string>;
  expect(workflow).toMatch(/^on:\n {2}pull_request:\n/m);
  expect(workflow).toMatch(/fetch-depth: 0/);
  expect(workflow).toMatch(/node-version: 20\n/);
  expect(workflow).toMatch(/run: npm ci\b/);
  expect(workflow).toMatch(/uses: actions\/cache@v4\n\s+with:\n\s+path: node_modules\/\.cache\/aso-registry\n/);
  expect(workflow).toMatch(/BASE_REF: \$\{\{ github\.base_ref \}\}\n\s+run: npm run check -- --base "origin\/\$BASE_REF"\n/);
  expect(workflow).toMatch(/run: npm run build\n/);
  expect(scripts.check).toBe('tsx scripts/check.ts');
  expect(scripts.build).toBe('node scripts/build.mjs');
  // No expression is expanded inside a shell command: refs reach the shell through the environment.
  for (const line of workflow.split('\n').filter((l) => /^\s+run:/.test(l))) expect(line).not.toContain('${{');
});
