import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsDeliveryStore } from '../../../src/jobs/store/fs-delivery-store.ts';
import type { WebhookDelivery } from '../../../src/jobs/store/types.ts';
import { tempDir } from '../helpers.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function folder(): Promise<string> {
  const dir = await tempDir('aso-deliveries-');
  cleanups.push(dir.remove);
  return dir.path;
}

const delivery = (id: string, dueInMs = 0): WebhookDelivery => ({
  id,
  owner: 'key_1',
  jobId: 'job-1',
  type: 'job.running',
  url: 'https://hooks.test/',
  body: '{}',
  createdAt: new Date().toISOString(),
  status: 'pending',
  attempts: 0,
  nextAttemptAt: new Date(Date.now() + dueInMs).toISOString(),
  lastResult: null,
  deliveredAt: null,
});

describe('FsDeliveryStore', () => {
  it('stores a delivery once, hands a due one to one claim at a time, and records each outcome across a reopen', async () => {
    const dir = await folder();
    const store = await FsDeliveryStore.open(dir);
    expect(await Promise.all([store.add(delivery('msg_a')), store.add(delivery('msg_a'))])).toEqual([true, false]);
    await store.add(delivery('msg_later', 60_000));
    expect((await store.take('w1', 10, 30_000)).map((d) => d.id)).toEqual(['msg_a']);
    expect(await store.take('w2', 10, 30_000)).toEqual([]);
    // The claimed one is due once its claim lapses, the other at its own time.
    expect(await store.nextDue()).toBeGreaterThan(Date.now() + 20_000);

    await store.settle('msg_a', 'w2', { status: 'delivered', attempts: 1, nextAttemptAt: null, lastResult: 'HTTP 200' });
    expect((await store.listByJob('job-1')).find((d) => d.id === 'msg_a')).toMatchObject({ status: 'pending', attempts: 0 });
    const retryAt = new Date(Date.now() - 1).toISOString();
    await store.settle('msg_a', 'w1', { status: 'pending', attempts: 1, nextAttemptAt: retryAt, lastResult: 'HTTP 500' });
    expect((await store.take('w2', 10, 30_000)).map((d) => [d.id, d.attempts])).toEqual([['msg_a', 1]]);
    await store.release('w2', ['msg_a']);

    const reopened = await FsDeliveryStore.open(dir);
    expect((await reopened.listByJob('job-1')).map((d) => [d.id, d.status, d.attempts, d.lastResult])).toEqual([
      ['msg_a', 'pending', 1, 'HTTP 500'],
      ['msg_later', 'pending', 0, null],
    ]);
    const [again] = await reopened.take('w3', 1, 30_000);
    await reopened.settle(again!.id, 'w3', { status: 'delivered', attempts: 2, nextAttemptAt: null, lastResult: 'HTTP 204' });
    expect((await reopened.listByJob('job-1'))[0]).toMatchObject({ status: 'delivered', deliveredAt: expect.any(String), nextAttemptAt: null });
    expect(await reopened.nextDue()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('sets an unreadable file aside, naming it, and refuses an id that is no file name', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'msg_bad.json'), '{ not json');
    const warnings: string[] = [];
    const store = await FsDeliveryStore.open(dir, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^webhook delivery file ${join(dir, 'msg_bad.json')} is unreadable \\(.*JSON.*\\); moved aside to msg_bad\\.json\\.corrupt$`));
    expect(await readdir(dir)).toEqual(['msg_bad.json.corrupt']);
    await expect(store.add(delivery('../escape'))).rejects.toThrow('webhook delivery id "../escape" is not a safe file name');
  });
});
