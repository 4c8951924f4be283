/**
 * An exclusive lock on one file across processes, with proper-lockfile: the lock is the folder `<file>.lock` (made with
 * mkdir, which only one process can win), kept fresh while held; one whose holder died is taken over once stale.
 */
import lockfile from 'proper-lockfile';

/** The lock folder of `path`. */
export function lockPath(path: string): string {
  return `${path}.lock`;
}

/** How long to wait for another process's lock before giving up, in milliseconds. */
const WAIT_MS = 60_000;

/** Runs `task` while this process alone holds the lock on `path` (which need not exist yet), waiting up to `waitMs` for it. */
export async function withFileLock<T>(path: string, task: () => Promise<T>, waitMs = WAIT_MS): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: 10_000,
      retries: { retries: Math.ceil(waitMs / 200), factor: 1, minTimeout: 50, maxTimeout: 200, randomize: true },
      onCompromised: (error) => void (compromised = error),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') throw new Error(`${path}: another process has held its lock (${lockPath(path)}) for over ${waitMs / 1000} s; try again when it is done`);
    throw error;
  }
  try {
    const result = await task();
    if (compromised) throw new Error(`${path}: the lock was lost while writing (${compromised.message}); check the file, then try again`);
    return result;
  } finally {
    if (!compromised) await release();
  }
}
