/** Reading a text file that may be absent: null when it is, an error naming the path for a link or a folder. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOptionalText } from '../../src/io/read-optional-text.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-read-optional-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readOptionalText', () => {
  it('reads a plain file, gives null for a missing one, and refuses a link or a folder, naming it', async () => {
    await writeFile(join(dir, 'ledger.jsonl'), 'line\n');
    expect(await readOptionalText(join(dir, 'ledger.jsonl'))).toBe('line\n');
    expect(await readOptionalText(join(dir, 'absent.jsonl'))).toBeNull();
    await symlink(join(dir, 'ledger.jsonl'), join(dir, 'link.jsonl'));
    await expect(readOptionalText(join(dir, 'link.jsonl'))).rejects.toThrow(`${join(dir, 'link.jsonl')} is a symbolic link; the registry holds only plain files and folders`);
    await mkdir(join(dir, 'folder.jsonl'));
    await expect(readOptionalText(join(dir, 'folder.jsonl'))).rejects.toThrow(`${join(dir, 'folder.jsonl')} is not a plain file`);
  });
});
