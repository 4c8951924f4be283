/** Reading one of the registry's line files (`ledger.jsonl`, `retractions.jsonl`) for check, with its problems per line. */
import { join } from 'node:path';
import type { Problem } from './registry-model.ts';
import { readOptionalText } from '../io/read-optional-text.ts';

/** A line file as check sees it: its text (null when absent or unreadable) and where to report problems. */
export interface LineFile {
  path: string;
  text: string | null;
  problems: Problem[];
  /** Reports a problem of the file, at a line when `line` is not null. */
  at(line: number | null, message: string): void;
}

/** Reads `registry/<name>`; a link or another unreadable file is reported as a problem of that file, not thrown. */
export async function readLineFile(registryRoot: string, name: string, rel: (path: string) => string): Promise<LineFile> {
  const path = join(registryRoot, name);
  const file = rel(path);
  const problems: Problem[] = [];
  const at = (line: number | null, message: string): void =>
    void problems.push({ file, ...(line !== null ? { pointer: `line ${line}` } : {}), message });
  try {
    return { path, text: await readOptionalText(path), problems, at };
  } catch (error) {
    at(null, (error as Error).message.replace(`${path} `, ''));
    return { path, text: null, problems, at };
  }
}
