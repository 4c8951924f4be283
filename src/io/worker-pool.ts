/**
 * Every pool of worker threads of the project is made here, on piscina. A thread module is a `<name>.ts` file beside
 * the module that starts it: run from the sources, the thread loads it through tsx; in the build's bundle
 * (scripts/build-bundle.mjs) it is the bundled `<name>.mjs` beside the bundle's entry.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';

/** Work items (pages, meshes) below which a pool is not worth starting: the calling thread does them sooner. */
export const ITEMS_FOR_THREADS = 500;

/** The threads `env[variable]` asks for (0 keeps the work on the calling thread), or undefined when it is not set; throws a sentence naming the variable for a bad value. */
export function threadSetting(variable: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${variable} must be a whole number of threads, 0 to do the work on the calling thread (not "${raw}")`);
  return Number(raw);
}

/** The threads for `items` work items: `setting` when there is one, else one per core but the calling thread's, none below {@link ITEMS_FOR_THREADS} items. */
export function threadsFor(items: number, setting?: number): number {
  if (setting !== undefined) return setting;
  return items < ITEMS_FOR_THREADS ? 0 : availableParallelism() - 1;
}

/** The file of thread module `name` beside the module at `from` (its `import.meta.url`), or undefined when it is not there. */
export function threadModuleFile(from: string, name: string): string | undefined {
  const file = fileURLToPath(new URL(`./${name}.${from.endsWith('.ts') ? 'ts' : 'mjs'}`, from));
  return existsSync(file) ? file : undefined;
}

/** Options of {@link workerPool}. */
export interface WorkerPoolOptions {
  /** The most threads; all are started now unless `idleMs` is given. */
  threads: number;
  /** Tasks a thread holds at once, so that the next is there when one is done; default 1. */
  tasksPerThread?: number;
  /** What every thread is started with (a structured copy each). */
  workerData?: unknown;
  /** Threads start on demand and stop after this long idle (a long-running service); default: all start now and stay. */
  idleMs?: number;
  /** The heap bound of each thread; default the process's own. */
  maxHeapMb?: number;
}

/** A pool of threads running the default export of the thread module `file` (see {@link threadModuleFile}). */
export function workerPool<Task, Result>(file: string, options: WorkerPoolOptions): Piscina<Task, Result> {
  if (!Number.isInteger(options.threads) || options.threads < 1) throw new Error(`a pool of threads needs at least one thread, not ${options.threads}`);
  // A TypeScript module (the sources) needs the tsx loader in its thread; a bundled one runs as it is.
  const execArgv = file.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return new Piscina<Task, Result>({
    filename: pathToFileURL(file).href,
    minThreads: options.idleMs === undefined ? options.threads : 0,
    maxThreads: options.threads,
    ...(options.idleMs === undefined ? {} : { idleTimeout: options.idleMs }),
    ...(options.maxHeapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } }),
    concurrentTasksPerWorker: options.tasksPerThread ?? 1,
    // A thread awaits between its steps: it keeps its event loop rather than blocking until the next task.
    atomics: 'disabled',
    workerData: options.workerData,
    execArgv,
  });
}
