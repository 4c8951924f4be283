/** The log's files in dist/: checkpoint, tiles and keys; a rebuild after a publication leaves exactly what a fresh build writes. */
import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpoint } from '@aso-registry/core/log/checkpoint';
import { generateKey } from '@aso-registry/core/log/note-signer';
import { checkSigningKey, writeLogFiles } from '../../../src/site/build/log-files.ts';
import { siteLogOf } from '../../../src/site/data/site-log.ts';
import { OutputWriter } from '../../../src/site/output/output-writer.ts';
import { removeStaleOutput } from '../../../src/site/output/stale-output.ts';
import { listFiles } from '../../support/site-files.ts';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `${JSON.stringify({ seq: i + 1, id: `thing-${i}`, version: '1.0.0' })}\n`).join('');

describe('writeLogFiles', () => {
  let work: string;
  const key = generateKey('registry.example.org');
  const keys = { logKey: key, publishers: new Map() };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'aso-log-files-'));
    await mkdir(join(work, 'registry'), { recursive: true });
    await writeFile(join(work, 'registry', 'log.pub'), `${key.text}\n`);
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('writes the signed checkpoint, every tile and bundle, and the log key', async () => {
    const out = join(work, 'one');
    const log = siteLogOf(lines(300), 'https://registry.example.org', key);
    const written = await writeLogFiles(log, keys, key, join(work, 'registry'), new OutputWriter(out));
    // The checkpoint, five tiles and bundles, the log key.
    expect(written).toMatchObject({ size: 300, signedBy: `registry.example.org+${key.keyId}`, written: 7 });
    expect(await listFiles(out)).toEqual(['checkpoint', 'log.pub', 'tile/0/000', 'tile/0/001.p/44', 'tile/1/000.p/1', 'tile/entries/000', 'tile/entries/001.p/44']);
    expect((await openCheckpoint(await readFile(join(out, 'checkpoint'), 'utf8'), [key])).signature.state).toBe('verified');
    expect((await stat(join(out, 'tile', '0', '000'))).size).toBe(256 * 32);
  });

  it('on a rebuild after a publication, keeps full tiles, replaces the partial ones, and matches a fresh build', async () => {
    const out = join(work, 'rebuilt');
    await writeLogFiles(siteLogOf(lines(300), 'https://registry.example.org', key), keys, key, join(work, 'registry'), new OutputWriter(out));
    const fullTile = (await stat(join(out, 'tile', '0', '000'))).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const writer = new OutputWriter(out);
    const next = await writeLogFiles(siteLogOf(lines(301), 'https://registry.example.org', key), keys, key, join(work, 'registry'), writer);
    // The checkpoint and the two partial tiles; the full tiles, the level-1 tile and the key are unchanged.
    expect(next.written).toBe(3);
    expect(removeStaleOutput(out, writer.paths)).toBe(2);
    const fresh = join(work, 'fresh');
    await writeLogFiles(siteLogOf(lines(301), 'https://registry.example.org', key), keys, key, join(work, 'registry'), new OutputWriter(fresh));
    expect(await listFiles(out)).toEqual(await listFiles(fresh));
    for (const f of await listFiles(out)) expect(Buffer.compare(await readFile(join(out, f)), await readFile(join(fresh, f))), f).toBe(0);
    expect((await stat(join(out, 'tile', '0', '000'))).mtimeMs).toBe(fullTile);
  });

  it('writes a bare checkpoint without a key, and refuses a key that is not log.pub\'s', async () => {
    const out = join(work, 'unsigned');
    const written = await writeLogFiles(siteLogOf(lines(3), 'https://registry.example.org', key), keys, null, join(work, 'registry'), new OutputWriter(out));
    expect(written.signedBy).toBeNull();
    expect((await openCheckpoint(await readFile(join(out, 'checkpoint'), 'utf8'), [key])).signature.state).toBe('unsigned');
    const other = generateKey('registry.example.org');
    expect(() => checkSigningKey(other, key, 'ASO_LOG_KEY_FILE')).toThrow(
      `ASO_LOG_KEY_FILE holds the key registry.example.org+${other.keyId}, but registry/log.pub is registry.example.org+${key.keyId}: sign with the key of registry/log.pub`,
    );
    expect(() => checkSigningKey(key, key, 'ASO_LOG_KEY')).not.toThrow();
  });
});
