/** The lock across processes, seen from one process: holders never overlap, and the lock folder is gone after. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withFileLock } from '../../src/io/file-lock.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-lock-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('lets one holder in at a time and removes the lock after, even when the task fails', async () => {
  const file = join(dir, 'ledger.jsonl');
  let inside = 0;
  let most = 0;
  const task = async (): Promise<void> => {
    inside++;
    most = Math.max(most, inside);
    await new Promise((r) => setTimeout(r, 20));
    inside--;
  };
  await Promise.all(Array.from({ length: 5 }, () => withFileLock(file, task)));
  expect(most).toBe(1);
  await expect(withFileLock(file, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await readdir(dir)).toEqual([]);
});
