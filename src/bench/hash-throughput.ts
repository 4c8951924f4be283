/** Hashing throughput of the registry's file hasher, as a ratio to Node's own SHA-256 of the same bytes in memory. */
import { createHash, randomFillSync } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256File, type FileHasher } from '../io/hash-file.ts';

/** What the hashing measurement found (rates in bytes per second). */
export interface HashThroughput {
  bytes: number;
  fileRate: number;
  memoryRate: number;
  /** fileRate / memoryRate: 1 means the file hasher is as fast as hashing the bytes already in memory. */
  ratio: number;
}

const CHUNK = 16 * 1024 * 1024;

/** Seconds one call of `task` takes. */
async function timed(task: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await task();
  return (performance.now() - t) / 1000;
}

/** Writes a file of `bytes` random bytes in `dir`, then times `hashFile` on it against `crypto` on a buffer of the same bytes. */
export async function measureHashThroughput(dir: string, bytes: number, opts: { runs?: number; hashFile?: FileHasher } = {}): Promise<HashThroughput> {
  const path = join(dir, 'hash-bench.bin');
  const chunk = randomFillSync(Buffer.alloc(Math.min(CHUNK, bytes)));
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < bytes; written += chunk.length) await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
  } finally {
    await handle.close();
  }
  const runs = opts.runs ?? 5;
  const hashFile = opts.hashFile ?? sha256File;
  try {
    // The same bytes in memory: the file is `chunk` repeated, so hashing `chunk` over and over feeds crypto the same input.
    const inMemory = (): Buffer => {
      const h = createHash('sha256');
      for (let done = 0; done < bytes; done += chunk.length) h.update(chunk.subarray(0, Math.min(chunk.length, bytes - done)));
      return h.digest();
    };
    // Alternate the two and keep the best of each, so that other work on the machine weighs on both alike.
    let memory = Infinity;
    let file = Infinity;
    for (let i = 0; i < runs; i++) {
      memory = Math.min(memory, await timed(inMemory));
      file = Math.min(file, await timed(() => hashFile(path)));
    }
    return { bytes, fileRate: bytes / file, memoryRate: bytes / memory, ratio: memory / file };
  } finally {
    await rm(path, { force: true });
  }
}
