/**
 * gltf-validator on threads of its own while the registry is checked. The validator is the largest part of the check's
 * CPU; on the check's thread it kept that thread busy while the other cores sat mostly idle (a cold build of 10,000
 * versions on 2 cores: 25-30% of the CPU idle during the check). On a thread the check reads, hashes and checks the
 * next versions while earlier ones are validated.
 *
 * The first files are validated on the calling thread: a registry of a few hundred small meshes is checked before a
 * thread has loaded the validator. A check that says up front that more are coming (`expect`, from its listing of the
 * version folders) has the threads start at once, and the calling thread validates none: it would otherwise spend its
 * first half second validating, and compiling the validator, while the other cores wait. Where the thread's module is
 * not there (a bundle that left it out, as the page renderer's does), every file is validated on the calling thread, as
 * with one core.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { GltfCheck } from '../core/gltf-rules.ts';
import { threadModule } from '../io/thread-module.ts';
import type { GltfFileValidator } from './check-version.ts';
import type { GltfValidationTask } from './gltf-validation-thread-entry.ts';
import { validateHashedGltf } from './validate-gltf.ts';

/**
 * Files, and bytes, validated on the calling thread before the threads start, by default: whichever comes first. A
 * thread answers its first file 0.17 s after it is started from the build's bundle, 0.42 s from the sources (`npm run
 * check`), about what 500 small meshes take here; a few large ones take longer.
 */
export const FILES_BEFORE_THREADS = 500;
export const BYTES_BEFORE_THREADS = 64 * 1024 * 1024;

/** Files a thread holds at once: the next is there when one is done, without waiting for the calling thread. */
const FILES_PER_THREAD = 4;

/** Options of {@link startGltfValidation}. */
export interface GltfValidationOptions {
  /** Threads to validate on; default one per core but the calling thread's, none on one core. */
  threads?: number;
  /** Files validated on the calling thread before the threads start; default {@link FILES_BEFORE_THREADS}. */
  after?: number;
  /** Bytes validated on the calling thread before the threads start; default {@link BYTES_BEFORE_THREADS}. */
  afterBytes?: number;
}

/**
 * The options `ASO_VALIDATION_THREADS` sets: that many threads from the first file on (0 validates every file on the
 * calling thread); none when it is not set.
 */
export function gltfValidationOptions(env: NodeJS.ProcessEnv = process.env): GltfValidationOptions {
  const raw = env.ASO_VALIDATION_THREADS?.trim();
  if (!raw) return {};
  if (!/^\d+$/.test(raw)) throw new Error(`ASO_VALIDATION_THREADS must be a whole number of threads, 0 to validate glTF files in the check's own thread (not "${raw}")`);
  return { threads: Number(raw), after: 0, afterBytes: 0 };
}

/**
 * A validator whose threads start once enough files are asked for; `close` stops them (files asked for after it are
 * validated on the calling thread).
 */
export interface GltfValidation {
  validate: GltfFileValidator;
  /**
   * Says how many files are coming, about: when they are more than those validated on the calling thread before the
   * threads start, the threads start now, and every file goes to them.
   */
  expect(files: number): void;
  /** How many files went to the threads so far, and on how many threads. */
  onThreads(): { files: number; threads: number };
  close(): Promise<void>;
}

/**
 * The module a validation thread starts from (gltf-validation-thread-entry.mjs in the bundle,
 * gltf-validation-thread-source.mjs from the sources); undefined when it is not there.
 */
function validationThreadModule(): string | undefined {
  const file = fileURLToPath(threadModule(import.meta.url, 'gltf-validation-thread'));
  return existsSync(file) ? file : undefined;
}

/**
 * Validates glTF files as `validateHashedGltf` does, on threads once `after` files or `afterBytes` bytes were validated
 * on the calling thread; the options default to those of `ASO_VALIDATION_THREADS` (see {@link gltfValidationOptions}).
 */
export function startGltfValidation(options: GltfValidationOptions = gltfValidationOptions()): GltfValidation {
  const threads = options.threads ?? availableParallelism() - 1;
  const after = options.after ?? FILES_BEFORE_THREADS;
  const afterBytes = options.afterBytes ?? BYTES_BEFORE_THREADS;
  let asked = 0;
  let bytes = 0;
  let sent = 0;
  let closing: Promise<void> | undefined;
  /** The pool once started; null when it cannot be (no module to start from). */
  let pool: Piscina<GltfValidationTask, GltfCheck> | null | undefined;
  const start = (): Piscina<GltfValidationTask, GltfCheck> | null => {
    const filename = validationThreadModule();
    if (!filename) return null;
    return new Piscina<GltfValidationTask, GltfCheck>({
      filename,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: FILES_PER_THREAD,
      // No loader flags of this process: the bundled module is plain JavaScript, the source module registers tsx.
      execArgv: [],
    });
  };
  return {
    validate(path, format, digest) {
      if (closing || threads < 1 || (pool === undefined && asked < after && bytes < afterBytes)) {
        asked += 1;
        bytes += digest.byteLength;
        return validateHashedGltf(path, format, digest);
      }
      if (pool === undefined) pool = start();
      if (pool === null) return validateHashedGltf(path, format, digest);
      sent += 1;
      return pool.run(digest.bytes ? { path, format, bytes: digest.bytes } : { path, format });
    },
    expect(files) {
      if (pool === undefined && !closing && threads >= 1 && files > after) pool = start();
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
