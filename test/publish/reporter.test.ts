import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApiJob } from '../../src/jobs/client/parse-job.ts';
import { createReporter } from '../../src/publish/reporter.ts';

const job = (status: ApiJob['status'], progress: number): ApiJob => ({
  id: 'job-1', status, model: 'relief', model_version: '1.0.0', progress, created_at: null, updated_at: null, download_url: null, asset: null, error: null,
});

describe('createReporter', () => {
  it('numbers the steps and indents what happens inside them', async () => {
    const lines: string[] = [];
    const r = await createReporter({ out: (l) => lines.push(l), err: () => {} }, 3);
    r.step('Reading the image');
    r.info('photo.jpg, 640 x 480');
    r.step('Submitting');
    r.close();
    expect(lines).toEqual(['[1/3] Reading the image', '      photo.jpg, 640 x 480', '[2/3] Submitting']);
  });

  it('without a terminal, prints a job line when the status changes or progress moves by 10 points', async () => {
    const lines: string[] = [];
    const r = await createReporter({ out: (l) => lines.push(l), err: () => {} }, 1);
    r.step('Waiting');
    for (const [status, progress] of [['queued', 0], ['queued', 0], ['running', 1], ['running', 5.4], ['running', 10.6], ['running', 18], ['running', 21], ['succeeded', 100]] as const) r.job(job(status, progress));
    expect(lines).toEqual(['[1/1] Waiting', '      job job-1: queued 0%', '      job job-1: running 1%', '      job job-1: running 11%', '      job job-1: running 21%', '      job job-1: succeeded 100%']);
  });

  it('starts counting again at each step', async () => {
    const lines: string[] = [];
    const r = await createReporter({ out: (l) => lines.push(l), err: () => {} }, 2);
    r.step('One');
    r.job(job('running', 50));
    r.step('Two');
    r.job(job('running', 50));
    expect(lines.filter((l) => l.includes('job job-1'))).toHaveLength(2);
  });

  it('on a terminal, draws one progress bar instead of lines, and ends it when the job finishes', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true }) as unknown as NodeJS.WriteStream;
    let drawn = '';
    (stream as unknown as PassThrough).on('data', (d: Buffer) => (drawn += d.toString()));
    const lines: string[] = [];
    const r = await createReporter({ out: (l) => lines.push(l), err: () => {}, stream }, 1);
    r.step('Waiting');
    r.job(job('running', 40));
    r.job(job('succeeded', 100));
    r.info('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(['[1/1] Waiting', '      done']);
    expect(drawn).toContain('job running   [');
    expect(drawn).toContain('100%');
  });
});
