/** The production-install figure of the bench, on a small project of its own: only its dependencies are installed. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureProductionInstall } from '../../src/bench/production-install.ts';

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'aso-small-project-'));
  // semver (a dependency of this project, so in npm's cache) for production, and a development dependency left out.
  const pkg = { name: 'small', version: '1.0.0', private: true, dependencies: { semver: '7.8.6' }, devDependencies: { 'p-map': '7.1.1' } };
  const lock = {
    name: 'small',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'small', version: '1.0.0', dependencies: pkg.dependencies, devDependencies: pkg.devDependencies },
      'node_modules/semver': { version: '7.8.6', resolved: 'https://registry.npmjs.org/semver/-/semver-7.8.6.tgz', license: 'ISC', bin: { semver: 'bin/semver.js' }, engines: { node: '>=10' } },
      'node_modules/p-map': { version: '7.1.1', resolved: 'https://registry.npmjs.org/p-map/-/p-map-7.1.1.tgz', dev: true, license: 'MIT', engines: { node: '>=18' } },
    },
  };
  await writeFile(join(project, 'package.json'), JSON.stringify(pkg));
  await writeFile(join(project, 'package-lock.json'), JSON.stringify(lock));
});

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('measureProductionInstall', () => {
  it('installs the production dependencies from the lock file and measures them on disk', async () => {
    const measured = await measureProductionInstall(project);
    expect(measured.packages).toBe(1);
    expect(measured.bytes).toBeGreaterThan(50_000);
    expect(measured.diskBytes).toBeGreaterThanOrEqual(measured.bytes);
  });
});
