/**
 * The size of a production install: `npm ci --omit=dev` from the project's package.json and lock file, in a folder of
 * its own, measured as `du` does (blocks on disk) and as the sum of file sizes.
 */
import { execFile } from 'node:child_process';
import { copyFile, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a production install weighs. */
export interface ProductionInstall {
  /** Blocks on disk, as `du -s` counts them. */
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
    let diskBytes = 0;
    let bytes = 0;
    for (const entry of await readdir(modules, { withFileTypes: true, recursive: true })) {
      const info = await lstat(join(entry.parentPath, entry.name));
      diskBytes += info.blocks * 512;
      if (entry.isFile()) bytes += info.size;
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
