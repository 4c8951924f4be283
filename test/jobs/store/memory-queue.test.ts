import { describe, expect, it } from 'vitest';
import { MemoryQueue } from '../../../src/jobs/store/memory-queue.ts';

/** A handler whose runs finish only when the test says so. */
function controlledHandler() {
  const started: string[] = [];
  const finish = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let running = 0;
  let maxRunning = 0;
  const handler = (id: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(id);
      running++;
      maxRunning = Math.max(maxRunning, running);
      const done = () => running--;
      finish.set(id, { resolve: () => (done(), resolve()), reject: (e) => (done(), reject(e)) });
    });
  return { handler, started, finish, running: () => running, maxRunning: () => maxRunning };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('MemoryQueue', () => {
  it('delivers ids first in, first out', async () => {
    const q = new MemoryQueue();
    const seen: string[] = [];
    q.consume(async (id) => void seen.push(id), 1);
    for (const id of ['a', 'b', 'c', 'd']) await q.enqueue(id);
    await settle();
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    await q.close();
  });

  it('keeps ids enqueued before there is a consumer, and delivers them in order once one starts', async () => {
    const q = new MemoryQueue();
    await q.enqueue('a');
    await q.enqueue('b');
    const seen: string[] = [];
    q.consume(async (id) => void seen.push(id), 1);
    await settle();
    expect(seen).toEqual(['a', 'b']);
    await q.close();
  });

  it('runs at most `concurrency` handlers at once, and starts the next as soon as one finishes', async () => {
    const q = new MemoryQueue();
    const h = controlledHandler();
    q.consume(h.handler, 2);
    for (const id of ['a', 'b', 'c', 'd']) await q.enqueue(id);
    await settle();
    expect(h.started).toEqual(['a', 'b']);
    h.finish.get('b')!.resolve();
    await settle();
    expect(h.started).toEqual(['a', 'b', 'c']);
    h.finish.get('a')!.resolve();
    await settle();
    expect(h.started).toEqual(['a', 'b', 'c', 'd']);
    h.finish.get('c')!.resolve();
    h.finish.get('d')!.resolve();
    await q.close();
    expect(h.maxRunning()).toBe(2);
  });

  it('ignores an id that is already waiting, but takes it again once it has been handed out', async () => {
    const q = new MemoryQueue();
    const h = controlledHandler();
    q.consume(h.handler, 1);
    await q.enqueue('a');
    await q.enqueue('b');
    await q.enqueue('b');
    await q.enqueue('a');
    await settle();
    h.finish.get('a')!.resolve();
    await settle();
    h.finish.get('b')!.resolve();
    await settle();
    h.finish.get('a')!.resolve();
    await settle();
    expect(h.started).toEqual(['a', 'b', 'a']);
    await q.close();
  });

  it('reports an error a handler lets escape, with its job, and goes on', async () => {
    const reported: Array<[string, string]> = [];
    const q = new MemoryQueue((id, error) => reported.push([id, (error as Error).message]));
    const seen: string[] = [];
    q.consume(async (id) => {
      seen.push(id);
      if (id === 'bad') throw new Error('model crashed');
    }, 1);
    await q.enqueue('bad');
    await q.enqueue('good');
    await settle();
    expect(seen).toEqual(['bad', 'good']);
    expect(reported).toEqual([['bad', 'model crashed']]);
    await q.close();
  });

  it('close waits for the running handlers, drops the waiting ids and ignores new ones', async () => {
    const q = new MemoryQueue();
    const h = controlledHandler();
    q.consume(h.handler, 1);
    await q.enqueue('a');
    await q.enqueue('b');
    await settle();
    let closed = false;
    const closing = q.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    await q.enqueue('c');
    h.finish.get('a')!.resolve();
    await closing;
    await settle();
    expect(h.started).toEqual(['a']);
    expect(h.running()).toBe(0);
  });

  it('refuses a second consumer and a concurrency that is not a positive integer', () => {
    const q = new MemoryQueue();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => q.consume(async () => {}, bad)).toThrow(`concurrency must be a positive integer, got ${bad}`);
    }
    q.consume(async () => {}, 1);
    expect(() => q.consume(async () => {}, 1)).toThrow('the queue has a consumer already');
  });
});
