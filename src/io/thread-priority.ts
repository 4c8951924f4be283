/** The scheduling priority of the calling thread alone (Linux), for a thread that should only use a core left idle. */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * The kernel's id of the calling thread (Linux: `/proc/thread-self` links to `<pid>/task/<tid>`), or undefined where
 * there is none to read.
 */
export function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gives the calling thread the lowest priority (nice 19), so that it runs only when no other thread wants the core;
 * false where the system has no per-thread priority (the thread then runs as any other).
 */
export function yieldToOtherThreads(): boolean {
  const tid = threadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, constants.priority.PRIORITY_LOW);
    return true;
  } catch {
    return false;
  }
}
