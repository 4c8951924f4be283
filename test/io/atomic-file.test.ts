import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTemporaryFile, writeFileAtomic } from '../../src/io/atomic-file.ts';

const MODULE = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'io', 'atomic-file.ts')).href;

describe('writeFileAtomic', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-atomic-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('creates a file from text or bytes and replaces it, leaving nothing else behind', async () => {
    const path = join(dir, 'plain.json');
    await writeFileAtomic(path, '{"a":1}\n');
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n');
    await writeFileAtomic(path, Uint8Array.from([1, 2, 3]));
    expect(new Uint8Array(await readFile(path))).toEqual(Uint8Array.from([1, 2, 3]));
    await writeFileAtomic(path, '');
    expect(await readFile(path, 'utf8')).toBe('');
    expect(await readdir(dir)).toEqual(['plain.json']);
  });

  it('never lets a reader see a partial file while it replaces a large one', async () => {
    const path = join(dir, 'large.bin');
    const versions = [0x41, 0x42].map((fill) => Buffer.alloc(4 * 1024 * 1024, fill));
    await writeFileAtomic(path, versions[0]!);
    let writing = true;
    const reads: number[] = [];
    const reader = (async () => {
      while (writing) {
        const bytes = await readFile(path);
        const whole = versions.some((v) => v.equals(bytes));
        reads.push(whole ? -1 : bytes.length);
      }
    })();
    for (let i = 1; i <= 12; i++) await writeFileAtomic(path, versions[i % 2]!);
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((r) => r !== -1)).toEqual([]);
    expect((await readFile(path)).equals(versions[0]!)).toBe(true);
  });

  it('removes its temporary file and keeps the old content when the rename fails', async () => {
    const sub = join(dir, 'rename-fails');
    await mkdir(join(sub, 'target', 'inside'), { recursive: true });
    await expect(writeFileAtomic(join(sub, 'target'), 'new')).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(await readdir(sub)).toEqual(['target']);
  });

  it('removes its temporary file when the bytes cannot be written', async () => {
    const sub = join(dir, 'write-fails');
    await mkdir(sub);
    await writeFile(join(sub, 'kept.txt'), 'old');
    await expect(writeFileAtomic(join(sub, 'kept.txt'), 42 as unknown as string)).rejects.toThrow(TypeError);
    expect(await readdir(sub)).toEqual(['kept.txt']);
    expect(await readFile(join(sub, 'kept.txt'), 'utf8')).toBe('old');
  });

  it('fails with the path when the folder does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json'), '{}')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves only a file isTemporaryFile recognises, and the old content, when the process dies before the rename', async () => {
    const sub = join(dir, 'crash');
    await mkdir(sub);
    const target = join(sub, 'aso.object.json');
    await writeFile(target, 'old');
    // A child process that stops for good once the new bytes are flushed, then is killed there.
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(MODULE)};
      import { open } from 'node:fs/promises';
      const handle = await open(${JSON.stringify(target)}, 'r');
      const FileHandle = Object.getPrototypeOf(handle);
      await handle.close();
      FileHandle.sync = function () { process.stdout.write('flushed\\n'); return new Promise(() => {}); };
      await writeFileAtomic(${JSON.stringify(target)}, 'new');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('flushed') && resolve());
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before the write: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const names = await readdir(sub);
    expect(names).toHaveLength(2);
    const left = names.find((n) => n !== 'aso.object.json')!;
    expect(left).toMatch(/^\.aso\.object\.json\.[0-9a-f]{12}\.tmp$/);
    expect(isTemporaryFile(left)).toBe(true);
    expect(await readFile(join(sub, left), 'utf8')).toBe('new');
    expect(await readFile(target, 'utf8')).toBe('old');
  });
});

describe('isTemporaryFile', () => {
  it('is true only for dot-files ending in .tmp', () => {
    expect(isTemporaryFile('.ledger.jsonl.0a1b2c3d4e5f.tmp')).toBe(true);
    expect(isTemporaryFile('.x.tmp')).toBe(true);
    expect(isTemporaryFile('ledger.jsonl.tmp')).toBe(false);
    expect(isTemporaryFile('.ledger.jsonl')).toBe(false);
    expect(isTemporaryFile('aso.object.json')).toBe(false);
    expect(isTemporaryFile('.tmp.json')).toBe(false);
  });
});
