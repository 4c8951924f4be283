/**
 * gltf-validator on threads of its own while the registry is checked: the validator is most of the check's CPU, and on
 * a thread the check reads and hashes the next versions while earlier ones are validated. The first files are
 * validated on the calling thread, so that a small registry is checked before a thread could load the validator. Where
 * the thread's module is not there (the page renderer's bundle leaves it out), every file is validated on the calling
 * thread.
 */
import type { GltfCheck } from '@aso-registry/core/format/gltf-rules';
import { ITEMS_FOR_THREADS, threadModuleFile, threadSetting, threadsFor, workerPool } from '../io/worker-pool.ts';
import type { GltfFileValidator } from './check-version.ts';
import type { GltfValidationTask } from './gltf-validation-thread.ts';
import { validateHashedGltf } from './validate-gltf.ts';

/** The variable that sets the number of validation threads. */
const THREADS_VARIABLE = 'ASO_VALIDATION_THREADS';

/** Options of {@link startGltfValidation}. */
export interface GltfValidationOptions {
  /** Threads to validate on; default one per core but the calling thread's, none on one core. */
  threads?: number;
  /** Files validated on the calling thread before the threads start; default {@link ITEMS_FOR_THREADS}. */
  after?: number;
}

/**
 * The options `ASO_VALIDATION_THREADS` sets: that many threads from the first file on (0 validates every file on the
 * calling thread); the defaults when it is not set.
 */
export function gltfValidationOptions(env: NodeJS.ProcessEnv = process.env): GltfValidationOptions {
  const threads = threadSetting(THREADS_VARIABLE, env);
  return threads === undefined ? {} : { threads, after: 0 };
}

/** A validator whose threads start once enough files are asked for; `close` stops them (files asked for after it are validated on the calling thread). */
export interface GltfValidation {
  validate: GltfFileValidator;
  /** How many files went to the threads so far, and on how many threads. */
  onThreads(): { files: number; threads: number };
  close(): Promise<void>;
}

/** Validates glTF files as `validateHashedGltf` does, on threads once `after` files were validated on the calling thread. */
export function startGltfValidation(options: GltfValidationOptions = gltfValidationOptions()): GltfValidation {
  const threads = options.threads ?? threadsFor(Infinity);
  const after = options.after ?? ITEMS_FOR_THREADS;
  let asked = 0;
  let sent = 0;
  let closing: Promise<void> | undefined;
  /** The pool once started; null when it cannot be (no module to start from). */
  let pool: ReturnType<typeof workerPool<GltfValidationTask, GltfCheck>> | null | undefined;
  const start = (): typeof pool => {
    const file = threadModuleFile(import.meta.url, 'gltf-validation-thread');
    return file ? workerPool<GltfValidationTask, GltfCheck>(file, { threads, tasksPerThread: 4 }) : null;
  };
  return {
    validate(path, format, digest) {
      if (closing || threads < 1 || (pool === undefined && asked++ < after)) return validateHashedGltf(path, format, digest);
      pool ??= start();
      if (!pool) return validateHashedGltf(path, format, digest);
      sent += 1;
      return pool.run(digest.bytes ? { path, format, bytes: digest.bytes } : { path, format });
    },
    onThreads: () => ({ files: sent, threads: sent ? threads : 0 }),
    close: () => (closing ??= pool ? pool.destroy() : Promise.resolve()),
  };
}

/** Runs `check` with a validator of {@link startGltfValidation} (`options` default as there), and stops its threads after it. */
export async function withGltfValidation<T>(options: GltfValidationOptions | undefined, check: (validation: GltfValidation) => Promise<T>): Promise<T> {
  const validation = startGltfValidation(options);
  try {
    return await check(validation);
  } finally {
    await validation.close();
  }
}
