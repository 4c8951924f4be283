/**
 * The size of a production install: `npm ci --omit=dev` from the project's package.json and lock file, in a folder of
 * its own, measured by `du -sk` (blocks on disk, folders included) and as the sum of file sizes.
 */
import { execFile } from 'node:child_process';
import { copyFile, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a production install weighs. */
export interface ProductionInstall {
  /** Blocks on disk, as `du -sk` counts them. */
  diskBytes: number;
  /** The files' sizes added up. */
  bytes: number;
  /** Folders directly under node_modules (a scope counts its packages). */
  packages: number;
  ms: number;
}

/** Installs the production dependencies of the project at `root` into a temporary folder and measures them. */
export async function measureProductionInstall(root: string): Promise<ProductionInstall> {
  const folder = await mkdtemp(join(tmpdir(), 'aso-production-install-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) await copyFile(join(root, file), join(folder, file));
    const started = performance.now();
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: folder, maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - started;
    const modules = join(folder, 'node_modules');
    const { stdout } = await run('du', ['-sk', modules]);
    const diskBytes = Number.parseInt(stdout, 10) * 1024;
    let bytes = 0;
    for (const entry of await readdir(modules, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) bytes += (await lstat(join(entry.parentPath, entry.name))).size;
    }
    let packages = 0;
    for (const entry of await readdir(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      packages += entry.name.startsWith('@') ? (await readdir(join(modules, entry.name))).length : 1;
    }
    return { diskBytes, bytes, packages, ms };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
