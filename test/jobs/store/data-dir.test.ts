import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths, openFsBackend, openKeyStore } from '../../../src/jobs/store/data-dir.ts';

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the data folder', () => {
  let root: string;
  let n = 0;
  const fresh = () => join(root, `data-${++n}`);
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'aso-data-dir-test-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lays out jobs, blobs, keys, webhook deliveries and the lock under one absolute folder', () => {
    expect(dataPaths('/srv/jobs/')).toEqual({ root: '/srv/jobs', jobs: '/srv/jobs/jobs', blobs: '/srv/jobs/blobs', keys: '/srv/jobs/keys', webhooks: '/srv/jobs/webhooks', lock: '/srv/jobs/service.lock' });
    expect(dataPaths('relative').root).toBe(join(process.cwd(), 'relative'));
  });

  it('opens every store in a new folder and holds its lock until released', async () => {
    const dir = fresh();
    const backend = await openFsBackend(dir);
    expect((await readdir(dir)).sort()).toEqual(['blobs', 'jobs', 'keys', 'service.lock', 'webhooks']);
    expect(await readFile(join(dir, 'service.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await expect(openFsBackend(dir)).rejects.toThrow(`the data folder is in use by another job service (process ${process.pid}, lock file ${join(dir, 'service.lock')})`);
    await backend.close();
    expect(await readdir(dir)).not.toContain('service.lock');
    const again = await openFsBackend(dir);
    await again.close();
  });

  it('refuses a folder that a live process holds', async () => {
    const dir = fresh();
    const first = await openFsBackend(dir);
    await first.close();
    await writeFile(join(dir, 'service.lock'), `${process.ppid}\n`);
    await expect(openFsBackend(dir)).rejects.toThrow(`(process ${process.ppid}, lock file`);
  });

  it('takes over a lock left by a process that is gone, or that says nothing readable', async () => {
    for (const content of [`${deadPid()}\n`, 'garbage', '']) {
      const dir = fresh();
      await (await openFsBackend(dir)).close();
      await writeFile(join(dir, 'service.lock'), content);
      const backend = await openFsBackend(dir);
      expect(await readFile(join(dir, 'service.lock'), 'utf8')).toBe(`${process.pid}\n`);
      await backend.close();
    }
  });

  it("takes over this process's own id in a lock it does not hold (a restarted container)", async () => {
    const dir = fresh();
    await (await openFsBackend(dir)).close();
    await writeFile(join(dir, 'service.lock'), `${process.pid}\n`);
    const backend = await openFsBackend(dir);
    await backend.close();
  });

  it('releases the lock when a store cannot open, and says why', async () => {
    const dir = fresh();
    await (await openFsBackend(dir)).close();
    await rm(join(dir, 'keys'), { recursive: true });
    await writeFile(join(dir, 'keys'), 'a file where the keys folder belongs');
    await expect(openFsBackend(dir)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readdir(dir)).not.toContain('service.lock');
  });

  it('shares its keys with the key store the CLI opens beside a running service', async () => {
    const dir = fresh();
    const backend = await openFsBackend(dir);
    const { key } = await (await openKeyStore(dir)).create('from the cli');
    expect((await backend.keys.authenticate(key))?.name).toBe('from the cli');
    await backend.close();
  });
});
