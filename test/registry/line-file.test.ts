import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLineFile } from '../../src/registry/line-file.ts';

describe('readLineFile', () => {
  let repo: string;
  let root: string;
  const rel = (path: string) => relative(repo, path);
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'aso-line-file-test-'));
    root = join(repo, 'registry');
    await mkdir(root);
    await writeFile(join(root, 'ledger.jsonl'), '{"seq":1}\n');
    await writeFile(join(repo, 'elsewhere.jsonl'), 'outside\n');
    await symlink(join(repo, 'elsewhere.jsonl'), join(root, 'retractions.jsonl'));
    await mkdir(join(root, 'folder.jsonl'));
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('reads the text of a plain file, with no problem', async () => {
    const file = await readLineFile(root, 'ledger.jsonl', rel);
    expect(file).toMatchObject({ path: join(root, 'ledger.jsonl'), text: '{"seq":1}\n', problems: [] });
  });

  it('gives null text and no problem for a file that is absent', async () => {
    const file = await readLineFile(root, 'absent.jsonl', rel);
    expect(file.text).toBeNull();
    expect(file.problems).toEqual([]);
  });

  it('reports a link as a problem of that file, without reading where it points', async () => {
    const file = await readLineFile(root, 'retractions.jsonl', rel);
    expect(file.text).toBeNull();
    expect(file.problems).toEqual([
      { file: 'registry/retractions.jsonl', message: 'is a symbolic link; the registry holds only plain files and folders' },
    ]);
  });

  it('reports a folder in place of the file', async () => {
    const file = await readLineFile(root, 'folder.jsonl', rel);
    expect(file.text).toBeNull();
    expect(file.problems).toEqual([{ file: 'registry/folder.jsonl', message: 'is not a plain file' }]);
  });

  it('collects the problems reported with at(), with the line as pointer when there is one', async () => {
    const file = await readLineFile(root, 'ledger.jsonl', rel);
    file.at(3, 'is not JSON');
    file.at(null, 'is empty');
    expect(file.problems).toEqual([
      { file: 'registry/ledger.jsonl', pointer: 'line 3', message: 'is not JSON' },
      { file: 'registry/ledger.jsonl', message: 'is empty' },
    ]);
  });
});
