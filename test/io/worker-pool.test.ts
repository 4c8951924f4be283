/** The one way the project starts threads: TypeScript thread modules from the sources, a thread count per setting. */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ITEMS_FOR_THREADS, threadModuleFile, threadSetting, threadsFor, workerPool } from '../../src/io/worker-pool.ts';

const here = pathToFileURL(join(import.meta.dirname, 'worker-pool.test.ts')).href;

describe('threadsFor', () => {
  it('is none below the threshold and one per core but one from it, unless a setting says otherwise', () => {
    expect(threadsFor(ITEMS_FOR_THREADS - 1)).toBe(0);
    expect(threadsFor(ITEMS_FOR_THREADS)).toBe(availableParallelism() - 1);
    expect(threadsFor(3, 2)).toBe(2);
    expect(threadsFor(10_000, 0)).toBe(0);
  });
});

describe('threadSetting', () => {
  it('reads a whole number of threads, or nothing when the variable is not set', () => {
    expect(threadSetting('ASO_X', {})).toBeUndefined();
    expect(threadSetting('ASO_X', { ASO_X: ' ' })).toBeUndefined();
    expect(threadSetting('ASO_X', { ASO_X: '2' })).toBe(2);
    expect(threadSetting('ASO_X', { ASO_X: ' 0 ' })).toBe(0);
  });

  it('names the variable and the value it cannot read', () => {
    expect(() => threadSetting('ASO_X', { ASO_X: 'two' })).toThrow('ASO_X must be a whole number of threads, 0 to do the work on the calling thread (not "two")');
    expect(() => threadSetting('ASO_X', { ASO_X: '-1' })).toThrow('(not "-1")');
  });
});

describe('threadModuleFile', () => {
  it('is the TypeScript module beside a source module, the bundled .mjs beside a bundle, or undefined when absent', () => {
    expect(threadModuleFile(here, 'support/echo-thread')).toBe(join(import.meta.dirname, 'support', 'echo-thread.ts'));
    expect(threadModuleFile(here, 'support/no-such-thread')).toBeUndefined();
    expect(threadModuleFile(pathToFileURL(join(import.meta.dirname, 'bundle.mjs')).href, 'support/echo-thread')).toBeUndefined();
  });
});

describe('workerPool', () => {
  it('runs a TypeScript thread module on as many threads as asked, each started with the data', async () => {
    const pool = workerPool<number, { greeting: string; task: number; thread: number }>(threadModuleFile(here, 'support/echo-thread')!, {
      threads: 2,
      workerData: { greeting: 'hello' },
    });
    try {
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pool.run(n)));
      expect(answers.map((a) => [a.greeting, a.task])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['hello', n]));
      expect(answers.every((a) => a.thread > 0)).toBe(true);
      expect(pool.threads.length).toBe(2);
    } finally {
      await pool.destroy();
    }
  });

  it('starts threads on demand when they stop after an idle time', async () => {
    const pool = workerPool<number, { task: number }>(threadModuleFile(here, 'support/echo-thread')!, { threads: 2, idleMs: 60_000, workerData: { greeting: 'hi' } });
    try {
      expect(pool.threads.length).toBe(0);
      expect((await pool.run(7)).task).toBe(7);
      expect(pool.threads.length).toBeGreaterThanOrEqual(1);
    } finally {
      await pool.destroy();
    }
  });

  it('refuses a pool without threads', () => {
    expect(() => workerPool('unused.ts', { threads: 0 })).toThrow('a pool of threads needs at least one thread, not 0');
  });
});
