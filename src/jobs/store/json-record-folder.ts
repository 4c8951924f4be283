/**
 * Loading a folder of `<id>.json` records (jobs, webhook deliveries) when a store opens: temporary files of a write that
 * died are removed, and a file that is not a record of its own name is set aside as `.corrupt` with a warning.
 */
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryFile } from '../../io/atomic-file.ts';

/** Creates `dir` if needed and returns its records in file-name order; `what` names a record in warnings (`job`). */
export async function loadJsonRecords<T extends { id: string }>(
  dir: string,
  what: string,
  isRecord: (value: unknown) => boolean,
  warn: (line: string) => void,
): Promise<T[]> {
  await mkdir(dir, { recursive: true });
  const records: T[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    if (isTemporaryFile(name)) {
      await rm(path, { force: true });
      continue;
    }
    if (!name.endsWith('.json')) continue;
    try {
      const value = JSON.parse(await readFile(path, 'utf8')) as T;
      if (!isRecord(value) || `${value.id}.json` !== name) throw new Error(`not a ${what} record`);
      records.push(value);
    } catch (err) {
      await rename(path, `${path}.corrupt`);
      warn(`${what} file ${path} is unreadable (${(err as Error).message}); moved aside to ${name}.corrupt`);
    }
  }
  return records;
}
