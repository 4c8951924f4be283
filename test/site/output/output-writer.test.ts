/** The build's writer: each write only where the bytes differ; copies keep the source's time; large copies run off the thread. */
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_COPY_BYTES } from '../../../src/io/copy-file-sync.ts';
import { LARGE_COPY_BYTES, OutputWriter } from '../../../src/site/output/output-writer.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aso-writer-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('OutputWriter.write', () => {
  it('writes new bytes, makes the folders, and leaves a file that already holds the same bytes alone', async () => {
    const out = join(dir, 'w1');
    const first = new OutputWriter(out);
    expect(await first.write('a/b/c.json', '{"v":1}\n')).toBe(true);
    expect(await readFile(join(out, 'a', 'b', 'c.json'), 'utf8')).toBe('{"v":1}\n');
    const before = await stat(join(out, 'a', 'b', 'c.json'));
    const again = new OutputWriter(out);
    expect(await again.write('a/b/c.json', new TextEncoder().encode('{"v":1}\n'))).toBe(false);
    expect((await stat(join(out, 'a', 'b', 'c.json'))).mtimeMs).toBe(before.mtimeMs);
    expect(again.counts()).toEqual({ files: 1, written: 0 });
    // Same size, other bytes: written.
    expect(await new OutputWriter(out).write('a/b/c.json', '{"v":2}\n')).toBe(true);
    expect(await readFile(join(out, 'a', 'b', 'c.json'), 'utf8')).toBe('{"v":2}\n');
  });

  it('says whether the site already holds a file at a path', async () => {
    const w = new OutputWriter(join(dir, 'w4'));
    expect(await w.has('x/y.json')).toBe(false);
    await w.write('x/y.json', '{}');
    expect(await w.has('x/y.json')).toBe(true);
    expect(await w.has('x')).toBe(false);
  });

  it('refuses a path written twice in one build', async () => {
    const w = new OutputWriter(join(dir, 'w2'));
    await w.write('x.txt', 'one');
    expect(() => w.write('x.txt', 'two')).toThrow('the build wrote x.txt twice');
  });

  it('writes many files at once, every one whole', async () => {
    const out = join(dir, 'w3');
    const w = new OutputWriter(out);
    await Promise.all(Array.from({ length: 500 }, (_, i) => w.write(`f/${i % 7}/${i}.txt`, `file ${i}`)));
    expect(w.counts()).toEqual({ files: 500, written: 500 });
    for (const i of [0, 123, 499]) expect(await readFile(join(out, 'f', String(i % 7), `${i}.txt`), 'utf8')).toBe(`file ${i}`);
  });
});

describe('OutputWriter.copy', () => {
  it('copies, gives the copy the source’s time, and then leaves it alone', async () => {
    const from = join(dir, 'a.glb');
    await writeFile(from, 'mesh bytes');
    const out = join(dir, 'c1');
    expect(await new OutputWriter(out).copy(from, 'r/a.glb')).toBe(true);
    const to = join(out, 'r', 'a.glb');
    expect(await readFile(to, 'utf8')).toBe('mesh bytes');
    expect(Math.abs((await stat(to)).mtimeMs - (await stat(from)).mtimeMs)).toBeLessThan(1);
    expect(await new OutputWriter(out).copy(from, 'r/a.glb')).toBe(false);
  });

  it('copies files on both sides of the small-copy size byte for byte, each with the source’s time', async () => {
    const out = join(dir, 'c5');
    const w = new OutputWriter(out);
    const sizes = [0, 1, SMALL_COPY_BYTES - 1, SMALL_COPY_BYTES, SMALL_COPY_BYTES + 4093];
    const sources = await Promise.all(
      sizes.map(async (size) => {
        const from = join(dir, `sized-${size}.bin`);
        const bytes = Buffer.alloc(size);
        for (let i = 0; i < size; i++) bytes[i] = (i * 31 + size) % 256;
        await writeFile(from, bytes);
        // A time in the past, so that a copy given the time of its writing would be told apart.
        await utimes(from, new Date('2024-01-02T03:04:05.678Z'), new Date('2024-01-02T03:04:05.678Z'));
        return { from, bytes, path: `s/${size}.bin` };
      }),
    );
    expect(await Promise.all(sources.map((s) => w.copy(s.from, s.path)))).toEqual(sizes.map(() => true));
    for (const s of sources) {
      expect((await readFile(join(out, ...s.path.split('/')))).equals(s.bytes)).toBe(true);
      expect(Math.abs((await stat(join(out, ...s.path.split('/')))).mtimeMs - Date.parse('2024-01-02T03:04:05.678Z'))).toBeLessThan(1);
    }
    const again = new OutputWriter(out);
    expect(await Promise.all(sources.map((s) => again.copy(s.from, s.path)))).toEqual(sizes.map(() => false));
    // A copy over a longer file of another time leaves no byte of it behind.
    await writeFile(join(out, 's', '1.bin'), Buffer.alloc(5000, 7));
    expect(await new OutputWriter(out).copy(sources[1]!.from, 's/1.bin')).toBe(true);
    expect((await readFile(join(out, 's', '1.bin'))).equals(sources[1]!.bytes)).toBe(true);
  });

  it('copies again when the target differs in size or time', async () => {
    const from = join(dir, 'b.json');
    await writeFile(from, '{"v":1}');
    const out = join(dir, 'c2');
    await new OutputWriter(out).copy(from, 'b.json');
    await writeFile(join(out, 'b.json'), '{"v":1} tampered');
    expect(await new OutputWriter(out).copy(from, 'b.json')).toBe(true);
    expect(await readFile(join(out, 'b.json'), 'utf8')).toBe('{"v":1}');
    // Same size, other bytes and another time (an edit by hand): copied again.
    await writeFile(join(out, 'b.json'), '{"v":2}');
    expect(await new OutputWriter(out).copy(from, 'b.json')).toBe(true);
    expect(await readFile(join(out, 'b.json'), 'utf8')).toBe('{"v":1}');
  });

  it('copies when a file of the same size and another time replaced the source', async () => {
    const from = join(dir, 'c.txt');
    await writeFile(from, 'one');
    const out = join(dir, 'c3');
    await new OutputWriter(out).copy(from, 'c.txt');
    await writeFile(from, 'two');
    const later = new Date(Date.now() + 5000);
    await utimes(from, later, later);
    expect(await new OutputWriter(out).copy(from, 'c.txt')).toBe(true);
    expect(await readFile(join(out, 'c.txt'), 'utf8')).toBe('two');
  });

  it('copies large files off the build thread, with the same checks and the same time', async () => {
    const from = join(dir, 'large.glb');
    const bytes = Buffer.alloc(LARGE_COPY_BYTES + 1);
    for (let i = 0; i < bytes.length; i += 4093) bytes[i] = i % 251;
    await writeFile(from, bytes);
    const out = join(dir, 'c4');
    const w = new OutputWriter(out);
    const copies = await Promise.all([w.copy(from, 'm/large.glb'), w.copy(from, 'm/again.glb'), w.write('m/small.json', '{}')]);
    expect(copies).toEqual([true, true, true]);
    expect(w.written.sort()).toEqual(['m/again.glb', 'm/large.glb', 'm/small.json']);
    expect((await readFile(join(out, 'm', 'large.glb'))).equals(bytes)).toBe(true);
    expect(Math.abs((await stat(join(out, 'm', 'large.glb'))).mtimeMs - (await stat(from)).mtimeMs)).toBeLessThan(1);
    expect(await new OutputWriter(out).copy(from, 'm/large.glb')).toBe(false);
    // A copy that cannot be made rejects, naming the file.
    await expect(new OutputWriter(out).copy(join(dir, 'missing.glb'), 'm/missing.glb')).rejects.toThrow('missing.glb');
  });
});

describe('OutputWriter folders', () => {
  it('knows every folder it made, at every level, and the folders it found', async () => {
    const out = join(dir, 'f1');
    await mkdir(join(out, 'kept'), { recursive: true });
    const w = new OutputWriter(out);
    await w.write('a/b/c/page.html', 'x');
    await w.write('kept/new/doc.json', '{}');
    await w.write('kept/old.json', '{}');
    expect([...w.madeFolders].sort()).toEqual(['a', 'a/b', 'a/b/c', 'kept/new'].map((d) => join(out, d)));
    // Nothing was there to compare with below a folder it made; in a folder it found, the same bytes are left alone.
    const again = new OutputWriter(out);
    expect(await again.write('kept/old.json', '{}')).toBe(false);
    expect([...again.madeFolders]).toEqual([]);
  });

});
