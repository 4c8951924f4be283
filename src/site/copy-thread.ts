/**
 * What the copy thread runs (see early-copies.ts): it copies the published files it is handed into an output folder that
 * held nothing when the build began, so every folder it makes is new and no file is compared before it is written.
 * Each batch is copied as it arrives, synchronously (this thread has nothing else to do), until the build's thread
 * raises the stop flag; it then answers with the files it wrote and the folders it made, or with the first error,
 * naming the file. The build copies what the thread did not.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { copyWithTimes } from '../io/copy-file-sync.ts';

/** What the thread is started with. */
export interface CopyThreadData {
  outDir: string;
  /** One 32-bit integer: the build's thread sets it to 1 when the thread is to stop copying (see early-copies.ts). */
  stop: SharedArrayBuffer;
}

/** What the build's thread sends: a batch of copies (source, site path), or the end. */
export type CopyThreadRequest = { copies: Array<{ from: string; path: string }> } | { end: true };

/** What the thread answers at the end. */
export type CopyThreadAnswer = { written: string[]; madeFolders: string[] } | { error: string };

/** Copies batches into `outDir`, making each folder once, until `stopped` says so; `finish` says what was done. */
export function freshCopier(
  outDir: string,
  stopped: () => boolean = () => false,
): { copy(batch: Array<{ from: string; path: string }>): void; finish(): CopyThreadAnswer } {
  const root = dirname(join(outDir, '_'));
  const made = new Set<string>();
  const written: string[] = [];
  let failure: string | undefined;
  const folder = (dir: string): void => {
    if (dir === root || made.has(dir)) return;
    folder(dirname(dir));
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  };
  return {
    copy(batch) {
      for (const { from, path } of batch) {
        if (failure || stopped()) return;
        const to = join(outDir, ...path.split('/'));
        try {
          folder(dirname(to));
          copyWithTimes(from, to, statSync(from));
        } catch (error) {
          failure = `could not copy ${from} to ${path}: ${(error as Error).message}`;
          return;
        }
        written.push(path);
      }
    },
    finish: () => (failure ? { error: failure } : { written, madeFolders: [...made] }),
  };
}

/** Serves a build's thread on `port`: copies each batch as it comes, and answers the end with what was done. */
export function serveCopies(port: MessagePort, data: CopyThreadData): void {
  const stop = new Int32Array(data.stop);
  const copier = freshCopier(data.outDir, () => Atomics.load(stop, 0) !== 0);
  port.on('message', (request: CopyThreadRequest) => {
    if ('copies' in request) copier.copy(request.copies);
    else {
      port.postMessage(copier.finish() satisfies CopyThreadAnswer);
      port.close();
    }
  });
}
