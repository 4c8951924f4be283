/**
 * Appending to `registry/ledger.jsonl`: one writer at a time, in this process and across processes (an exclusive lock),
 * through an atomic write whose file and folder are on disk before the append reports success.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { appendToLedger, ledgerFrom, verifyLedger, type LedgerEntry, type LedgerPublication } from '@aso-registry/core/log/ledger';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { withFileLock } from '../io/file-lock.ts';
import { allPublications, ledgerPath } from '../registry/ledger-file.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task on the same file in this process has finished. */
export function serialized<T>(path: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(path) ?? Promise.resolve()).then(task, task);
  queues.set(
    path,
    run.catch(() => {}),
  );
  return run;
}

/** Flushes a folder's entries (a rename into it) to disk. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Appends one publication to `registry/ledger.jsonl` and returns its line. Refuses, naming the file, when the ledger
 * is broken or already holds the version or publication. A registry without a ledger starts one: every version
 * already in the tree first, oldest publication first, then this one. Other processes appending at once wait for an
 * exclusive lock (`ledger.jsonl.lock`), and the new file and its folder are on disk before this returns.
 */
export function appendLedgerEntry(registryRoot: string, publication: LedgerPublication): Promise<LedgerEntry> {
  const path = ledgerPath(registryRoot);
  const key = (p: LedgerPublication): string => `${p.id}@${p.version}`;
  return serialized(path, () => withFileLock(path, async () => {
    const text = await readOptionalText(path);
    let next: string;
    try {
      if (text !== null) next = await appendToLedger(text, publication);
      else {
        const earlier = (await allPublications(registryRoot)).filter((p) => key(p) !== key(publication));
        next = await appendToLedger(await ledgerFrom(earlier), publication);
      }
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
    await writeFileAtomic(path, next);
    await syncFolder(dirname(path));
    const { entries } = await verifyLedger(next);
    return entries.at(-1)!;
  }));
}

