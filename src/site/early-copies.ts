/**
 * A cold build copies the published files while the registry is checked. The check keeps the build's thread busy and
 * leaves part of the other core idle, while the pages, documents and copies after it keep both cores busy: the copies
 * (a manifest and the representation files of each version, and the thumbnails) are the part of that work that does
 * not wait for the whole registry. A version's files go to a copy thread as soon as the version checks clean, and each
 * thumbnail as it is made. The thread runs at the lowest priority, on what the check leaves idle, and stops when the
 * check ends: the build copies what it did not reach, as it copies everything in a build without the thread.
 *
 * Only into an output folder that held nothing (a first build, or one into a new folder): nothing there can then be
 * overwritten, every folder the thread makes is new, and a check that fails leaves the folder as it found it (empty,
 * or not there). A build with a last build in its folder copies as before, comparing each file with the one there.
 */
import { readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Manifest } from '../core/types.ts';
import { threadModule } from '../io/thread-module.ts';
import { versionCopies, type Copy } from './copy-published-files.ts';
import type { CopyThreadAnswer, CopyThreadData, CopyThreadRequest } from './copy-thread.ts';
import type { OutputWriter } from './output-writer.ts';

/**
 * Versions checked clean before the copy thread starts, by default; a check that lists as many starts it with the first
 * (see `expect`). Below that the build's thread copies them after the check, as in a small build: the thread costs a
 * start, and a few hundred versions' files copy in a fraction of a second.
 */
export const EARLY_COPY_VERSIONS = 500;

/** The module a copy thread starts from (copy-thread-entry.mjs in the bundle, copy-thread-source.mjs from the sources). */
const THREAD_ENTRY = threadModule(import.meta.url, 'copy-thread');

/**
 * The number of clean versions from which a build copies on a thread during the check, or Infinity for never:
 * `ASO_COPY_THREAD=0` never, `1` from the first version; by default {@link EARLY_COPY_VERSIONS}, and never on one core.
 */
export function copyThreadFrom(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ASO_COPY_THREAD?.trim();
  if (raw === '0') return Infinity;
  if (raw === '1') return 1;
  if (raw) throw new Error(`ASO_COPY_THREAD must be 0 (copy after the check) or 1 (copy on a thread during it), not "${raw}"`);
  return availableParallelism() > 1 ? EARLY_COPY_VERSIONS : Infinity;
}

/** Whether `dir` is an empty folder or is not there; what it holds otherwise. */
export async function emptyOrAbsent(dir: string): Promise<{ empty: boolean; existed: boolean }> {
  try {
    return { empty: (await readdir(dir)).length === 0, existed: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { empty: true, existed: false };
    throw error;
  }
}

/** The copies of a build made during its check. */
export interface EarlyCopies {
  /** Says how many versions the check will look at: when they are enough, the thread starts with the first clean one. */
  expect(versions: number): void;
  /** Hands over a version that checked clean: `checked` versions have so far. */
  add(registryRoot: string, manifest: Manifest, checked: number): void;
  /** Hands over one more file to copy (a thumbnail made meanwhile); a site path handed before is ignored. */
  addFile(from: string, path: string): void;
  /** Whether the thread started. */
  readonly started: boolean;
  /**
   * Stops the thread and records what it copied in the writer; resolves to those site paths (the build copies the
   * others). Throws naming a copy that failed.
   */
  finish(): Promise<ReadonlySet<string>>;
  /** Stops the thread (the check failed) and removes what it copied, leaving the folder as the build found it. */
  discard(): Promise<void>;
  /** Stops the thread if it still runs (a build that failed after its check); may be called again. */
  close(): Promise<void>;
}

/**
 * Copies during the check into `writer`'s output folder, which held nothing when the build began (`existed` says
 * whether it was there at all), from the `from`-th clean version on (see {@link copyThreadFrom}). `beforeStart` runs
 * just before the thread starts (the build marks its folder as being written).
 */
export function startEarlyCopies(writer: OutputWriter, options: { from: number; existed: boolean; beforeStart?: () => void }): EarlyCopies {
  let waiting: Copy[] = [];
  let worker: Worker | undefined;
  /** Whether the output folder was written to (the marker, then the thread's copies). */
  let touched = false;
  /** The clean versions from which the thread starts; Infinity once nothing more is taken. */
  let startAt = options.from;
  const stop = new SharedArrayBuffer(4);
  let answer: Promise<CopyThreadAnswer> | undefined;
  /**
   * The thumbnails taken, sent or waiting: two versions may share one. A version's own files have paths under its own
   * folder, taken once, so they are not kept here (at 100,000 versions, 300,000 paths held for the whole check).
   */
  const thumbnails = new Set<string>();
  const send = (): void => {
    if (!worker || !waiting.length) return;
    worker.postMessage({ copies: waiting } satisfies CopyThreadRequest);
    waiting = [];
  };
  const start = (): void => {
    touched = true;
    options.beforeStart?.();
    const thread = new Worker(THREAD_ENTRY, { workerData: { outDir: writer.outDir, stop } satisfies CopyThreadData });
    worker = thread;
    answer = new Promise<CopyThreadAnswer>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the copy thread stopped (exit code ${code}) before it said what it copied`)));
    });
    answer.catch(() => {}); // awaited by finish; a thread stopped by discard is not waited for
  };
  return {
    get started() {
      return worker !== undefined;
    },
    expect(versions) {
      if (!worker && startAt !== Infinity && versions >= startAt) startAt = 1;
    },
    add(registryRoot, manifest, checked) {
      if (startAt === Infinity) return;
      // Kept until the thread starts; dropped (and copied after the check) when it never does.
      waiting.push(...versionCopies(registryRoot, manifest));
      if (!worker) {
        if (checked < startAt) return;
        try {
          start();
        } catch {
          // Called from the check, which would take an error here for a problem of the version just checked: the build
          // copies after the check, as it does when no thread starts.
          startAt = Infinity;
          waiting = [];
          thumbnails.clear();
          return;
        }
      }
      send();
    },
    addFile(from, path) {
      if (startAt === Infinity || thumbnails.has(path)) return;
      thumbnails.add(path);
      waiting.push({ from, path });
      send();
    },
    async finish() {
      startAt = Infinity; // what comes after this is the build's to copy
      if (!worker) return new Set();
      // The thread stops before its next copy, whatever it was still handed; what it did not copy the build copies.
      Atomics.store(new Int32Array(stop), 0, 1);
      worker.postMessage({ end: true } satisfies CopyThreadRequest);
      const done = await answer!;
      await worker.terminate();
      if ('error' in done) throw new Error(done.error);
      writer.adopt(done);
      return new Set(done.written);
    },
    async close() {
      startAt = Infinity;
      await worker?.terminate();
    },
    async discard() {
      if (!touched) return;
      await this.close();
      // The folder held nothing: what is in it now is this build's (the thread's copies and the build's marker).
      if (!options.existed) await rm(writer.outDir, { recursive: true, force: true });
      else for (const name of await readdir(writer.outDir)) await rm(join(writer.outDir, name), { recursive: true, force: true });
    },
  };
}
