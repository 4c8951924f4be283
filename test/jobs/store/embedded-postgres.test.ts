/**
 * A process that starts and stops the embedded Postgres keeps the exit code it set: the package's own exit hooks (which
 * exit with 0 on `beforeExit`) are removed, so a failed test run or command is never reported as a success.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-embedded-postgres-'));
  await chmod(work, 0o755);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('leaves the exit code of its process alone', async () => {
    const module = pathToFileURL(join(ROOT, 'src', 'jobs', 'store', 'embedded-postgres.ts')).href;
    const script = [
      `const { startEmbeddedPostgres } = await import(${JSON.stringify(module)});`,
      `const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(join(work, 'data'))}, database: 'postgres' });`,
      'await server.stop();',
      'process.exitCode = 3;',
    ].join('\n');
    const code = await new Promise<number | null>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }, () => {});
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(3);
  });
});
